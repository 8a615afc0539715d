--  One program, every verdict: the first line of the input says what to do.
with Ada.Text_IO; use Ada.Text_IO;
with Ada.Integer_Text_IO; use Ada.Integer_Text_IO;
procedure Probe is
   Command : constant String := Get_Line;
   type Block is array (1 .. 2**20) of Character;
   type Block_Access is access Block;
begin
   if Command = "add" then
      declare
         A, B : Integer;
      begin
         Get (A);
         Get (B);
         Put (A + B, Width => 0);
         New_Line;
      end;
   elsif Command = "loop" then
      declare
         X : Integer := 0 with Volatile;
      begin
         loop
            X := (X + 1) mod 7;
         end loop;
      end;
   elsif Command = "alloc" then
      declare
         N : Integer;
      begin
         Get (N);
         declare
            Blocks : array (1 .. N) of Block_Access;
         begin
            for I in Blocks'Range loop
               Blocks (I) := new Block'(others => Character'Val (65 + I mod 26));
            end loop;
            Put (Blocks'Length, Width => 0);
            New_Line;
         end;
      end;
   elsif Command = "crash" then
      raise Program_Error with "crash on purpose";
   elsif Command = "peek" then
      declare
         File : File_Type;
      begin
         Open (File, In_File, Get_Line);
         Put_Line (Get_Line (File));
      end;
   end if;
end Probe;
