import { add } from "./add";
const fs = require("fs");
const v = fs.readFileSync(0, "utf8").split(/\s+/).map(Number);
console.log(add(v[0], v[1]));
