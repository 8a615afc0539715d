with Ada.Integer_Text_IO; use Ada.Integer_Text_IO;
with Ada.Text_IO;
with Adder;
procedure Main is
   A, B : Integer;
begin
   Get (A);
   Get (B);
   Put (Adder.Add (A, B), Width => 0);
   Ada.Text_IO.New_Line;
end Main;
