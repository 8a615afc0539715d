program broken
  integer :: x
  x = "text"
end program broken
