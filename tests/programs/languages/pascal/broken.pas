program Broken;
begin
  writeln(1 + );
end.
