! One program, every verdict: the first word of the input says what to do.
program probe
  implicit none
  character(len=16) :: mode
  character(len=4096) :: path, line
  integer(8) :: a, b
  integer(8), volatile :: x
  integer :: n, i, unit_no, status
  character(len=1), pointer :: block(:)
  read(*, *) mode
  select case (trim(mode))
  case ('add')
    read(*, *) a, b
    print '(I0)', a + b
  case ('loop')
    x = 0
    do
      x = x + 1
      if (x < 0) exit
    end do
    print '(I0)', x
  case ('alloc')
    read(*, *) n
    do i = 1, n
      allocate(block(1048576))
      block = 'x'
    end do
    print '(I0)', n
  case ('crash')
    error stop 3
  case ('peek')
    read(*, '(A)') path
    open(newunit=unit_no, file=trim(path), status='old', action='read', iostat=status)
    if (status /= 0) error stop 4
    do
      read(unit_no, '(A)', iostat=status) line
      if (status /= 0) exit
      print '(A)', trim(line)
    end do
  end select
end program probe
