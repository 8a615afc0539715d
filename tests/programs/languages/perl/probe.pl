#!/usr/bin/perl
# One program, every verdict: the first word of the input says what to do.
use strict;
use warnings;
my @words = split ' ', do { local $/; <STDIN> };
if ($words[0] eq 'add') { print $words[1] + $words[2], "\n"; }
elsif ($words[0] eq 'loop') { my $x = 0; while (1) { $x++; } }
elsif ($words[0] eq 'alloc') { my @blocks = map { chr(65 + $_ % 26) x (1 << 20) } 1 .. $words[1]; print scalar(@blocks), "\n"; }
elsif ($words[0] eq 'crash') { die "crash on purpose\n"; }
elsif ($words[0] eq 'peek') { open(my $in, '<', $words[1]) or exit 4; local $/; print <$in>; }
