unit adder;
interface
function add(a, b: longint): longint;
implementation
function add(a, b: longint): longint; begin add := a + b; end;
end.
