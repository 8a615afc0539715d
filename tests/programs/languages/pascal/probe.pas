{ One program, every verdict: the first line of the input says what to do. }
program Probe;
var
  mode, path, line: string;
  a, b: int64;
  n, i: longint;
  block: PByte;
  f: text;
  x: qword;
begin
  readln(mode);
  if mode = 'add' then begin readln(a, b); writeln(a + b); end
  else if mode = 'loop' then begin x := 0; while true do x := x + 1; end
  else if mode = 'alloc' then
  begin
    readln(n);
    for i := 1 to n do begin GetMem(block, 1 shl 20); FillChar(block^, 1 shl 20, 1); end;
    writeln(n);
  end
  else if mode = 'crash' then Halt(3)
  else if mode = 'peek' then
  begin
    readln(path);
    Assign(f, path);
    {$I-} Reset(f); {$I+}
    if IOResult <> 0 then Halt(4);
    while not eof(f) do begin readln(f, line); writeln(line); end;
  end;
end.
