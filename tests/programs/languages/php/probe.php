<?php
// One program, every verdict: the first word of the input says what to do.
$words = preg_split('/\s+/', trim(stream_get_contents(STDIN)));
if ($words[0] === "add") echo intval($words[1]) + intval($words[2]), "\n";
elseif ($words[0] === "loop") { $x = 0; while (true) $x++; }
elseif ($words[0] === "alloc") { $blocks = []; for ($i = 0; $i < intval($words[1]); $i++) $blocks[] = str_repeat(chr(65 + $i % 26), 1 << 20); echo count($blocks), "\n"; }
elseif ($words[0] === "crash") throw new RuntimeException("crash on purpose");
elseif ($words[0] === "peek") { $text = file_get_contents($words[1]); if ($text === false) exit(4); echo $text; }
