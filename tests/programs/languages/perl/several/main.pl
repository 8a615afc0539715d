#!/usr/bin/perl
use lib ".";
use Add;
my ($a, $b) = split " ", join(" ", <STDIN>);
print Add::add($a, $b), "\n";
