with Ada.Text_IO;
procedure Broken is
begin
   Ada.Text_IO.Put_Line ("no semicolon")
end Broken;
