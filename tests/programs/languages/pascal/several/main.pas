program main;
uses adder;
var a, b: longint;
begin readln(a, b); writeln(add(a, b)); end.
