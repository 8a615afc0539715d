module adder
contains
integer function add(a, b)
integer :: a, b
add = a + b
end function
end module
