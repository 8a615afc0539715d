// One program, every verdict: the first word of the input says what to do.
const fs = require("fs");
const words: string[] = fs.readFileSync(0, "utf8").split(/\s+/).filter((w: string) => w.length > 0);
if (words[0] === "add") console.log((BigInt(words[1]) + BigInt(words[2])).toString());
else if (words[0] === "loop") { let x: number = 0; for (;;) x++; }
else if (words[0] === "alloc") {
  const blocks: number[][] = [];
  for (let i = 0; i < Number(words[1]); i++) blocks.push(new Array<number>(1 << 17).fill(i + 0.5));
  console.log(blocks.length);
}
else if (words[0] === "crash") throw new Error("crash on purpose");
else if (words[0] === "peek") process.stdout.write(fs.readFileSync(words[1], "utf8"));
