package body Adder is
   function Add (A, B : Integer) return Integer is
   begin
      return A + B;
   end Add;
end Adder;
