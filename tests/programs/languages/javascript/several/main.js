const { add } = require("./add"); const v = require("fs").readFileSync(0, "utf8").split(/\s+/).map(Number); console.log(add(v[0], v[1]));
