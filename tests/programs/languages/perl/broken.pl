#!/usr/bin/perl
sub f {
