@include "add.awk"
{ print add($1, $2) }
