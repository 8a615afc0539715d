program main
use adder
integer :: a, b
read *, a, b
print "(I0)", add(a, b)
end program
