package Adder is
   function Add (A, B : Integer) return Integer;
end Adder;
