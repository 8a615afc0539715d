package Add;
sub add { return $_[0] + $_[1]; }
1;
