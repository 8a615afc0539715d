// The judge's harness of a JavaScript function: this file is what follows the student's code in
// main.js (what precedes it is one line that takes the writer and the exit before that code
// runs). It reads one call's arguments (JSON on stdin), calls the function named in
// __JUDGE_FUNCTION__, and writes what came of it after a mark as the last line of stdout
// (harness_python.py's protocol). A class (__JUDGE_CLASS__) plays a scenario instead: the object
// made, each method called in turn, each step's outcome written. The expected value is never
// here: the judge compares outside.
;(() => {
  const plain = (value, depth) => {
    if (depth > 1000) throw new Error("a value nested too deep");
    if (value === null || value === undefined) return null;
    const kind = typeof value;
    if (kind === "boolean" || kind === "string") return value;
    if (kind === "number") {
      if (!Number.isFinite(value)) throw new Error("float (not finite)");
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1));
    if (kind === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const out = {};
      for (const key of Object.keys(value)) out[key] = plain(value[key], depth + 1);
      return out;
    }
    throw new Error(kind === "object" ? (value.constructor && value.constructor.name) || "object" : kind);
  };
  const raised = (error) => {
    const name = (error && error.name) || typeof error;
    const message = String((error && error.message) || "").slice(0, 500);
    return '{"raised":' + __judgeJson(name) + ',"message":' + __judgeJson(message) + "}";
  };
  const outcome = (call) => {
    let value;
    try {
      value = call();
    } catch (error) {
      return raised(error);
    }
    try {
      return '{"returned":' + __judgeJson(plain(value, 0)) + "}";
    } catch (error) {
      return '{"unserializable":' + __judgeJson(String(error.message)) + "}";
    }
  };
  const scenario = (made, steps) => {
    let self;
    try {
      self = new made(...steps[0].slice(1));
    } catch (error) {
      return '{"steps":[' + raised(error) + "]}";  // no object: the scenario ends here
    }
    const said = ['{"returned":null}'];
    for (const [name, ...args] of steps.slice(1)) said.push(outcome(() => self[name](...args)));
    return '{"steps":[' + said.join(",") + "]}";
  };
  let result;
  try {
    const call = __judgeParse(__judgeRead(0, "utf8"));
    const target = typeof __JUDGE_FUNCTION__ === "function" ? __JUDGE_FUNCTION__ : undefined;
    if (target === undefined) {
      result = '{"missing":' + __judgeJson("__JUDGE_FUNCTION__") + "}";
    } else {
      result = __JUDGE_CLASS__ ? scenario(target, call) : outcome(() => target(...call));
    }
  } catch (error) {
    result = '{"import":{"raised":' + __judgeJson(String(error && error.name)) + "}}";
  }
  __judgeWrite(1, "\n\x1ejudge-result\x1e " + result + "\n");
  __judgeExit(0);
})();
