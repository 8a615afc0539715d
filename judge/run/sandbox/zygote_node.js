// A Node.js zygote (docs/sandbox.md, A zygote): the supervisor starts it as `node <the case's
// options> --single-threaded --preserve-symlinks-main /proc/self/fd/5 3 <tmp bytes> <main.js>`,
// root with the supervisor's capabilities (rootless: its user, and a last argument "1"), its channel on descriptor 3, the addon
// (zygote_node.c, compiled by the judge) on 4 and this file on 5 (a memfd, never the box's). It speaks supervisor.py's zygote protocol and
// never loads main.js (the student's code is in it): for each call the addon forks, and the
// child, already the case's user in the case's cgroup, runs main.js as `node main.js` would.
"use strict";
(() => {
  const Module = require("module");
  const { closeSync, writeSync } = require("fs");
  const { resolve } = require("path");
  const { inspect } = require("util");
  const [control, tmpBytes] = process.argv.slice(2).map(Number);
  // Rootless: each call in namespaces of its own under an init, which mounts its /tmp (zygote_node.c)
  const isolated = process.argv[5] === "1";
  const loaded = { exports: {} };
  process.dlopen(loaded, "/proc/self/fd/4");
  const zygote = loaded.exports;
  delete require.cache[__filename]; // no module of the zygote's in a call's cache

  // An exception main.js did not catch, as Node reports it (its 'uncaughtException'
  // listeners first); the child never returns to Node's own end, which would wait for the
  // zygote's worker threads.
  const uncaught = (error) => {
    if (process.listenerCount("uncaughtException") > 0) {
      process.emit("uncaughtException", error, "uncaughtException");
      return;
    }
    const said = error instanceof Error ? inspect(error) : `Uncaught ${inspect(error)}`;
    writeSync(2, `${said}\n\nNode.js ${process.version}\n`);
    process.exit(1);
  };

  // The child, once the addon has made it the case's: what a fresh `node <options> main.js` has
  const run = (request) => {
    const pid = Object.getOwnPropertyDescriptor(process, "pid");
    Object.defineProperty(process, "pid", { ...pid, value: zygote.pid() }); // its start's is the zygote's
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, request.env);
    process.chdir(request.cwd);
    const argv = request.argv;
    process.argv = [process.execPath, resolve(request.cwd, argv[argv.length - 1])];
    process.execArgv = argv.slice(1, -1);
    process.reallyExit = zygote.reallyExit;
    try {
      Module.runMain();
    } catch (error) {
      uncaught(error);
    }
    process.exit(); // the harness ends itself; a main.js that returns ends as its exit code says
  };

  const say = (message) => zygote.send(control, JSON.stringify(message));
  zygote.setup();
  let bytes = tmpBytes;
  let fresh = false; // /tmp is the session's until the first call's is mounted
  say({ ready: process.pid });
  for (;;) {
    const got = zygote.next(control);
    if (got === null) zygote.reallyExit(0); // the session ended this zygote
    const [text, fds] = got;
    let request;
    try {
      request = JSON.parse(text);
      if (request.swept) {
        // none of the call's processes is left: the next call's /tmp is made now
        try {
          if (!isolated) zygote.fresh(bytes);
          fresh = true;
        } catch (error) {
          fresh = false; // the next call's request tries again, and says why
        }
        say({ fresh });
        continue;
      }
      if (!Array.isArray(request.argv) || !Array.isArray(request.rlimits)) throw new Error("not a call");
      if (!isolated && (!fresh || request.stale || request.tmp_bytes !== bytes)) {
        bytes = request.tmp_bytes;
        zygote.fresh(bytes);
      }
      fresh = false;
      const uid = typeof request.uid === "number" ? request.uid : -1;
      const own = isolated ? [request.tmp_bytes, request.box_bytes || 0] : undefined;
      const pid = zygote.spawn(fds, request.rlimits, uid, own);
      if (pid === 0) {
        try {
          run(request);
        } finally {
          zygote.reallyExit(7); // an 'exit' listener threw: never back into this loop
        }
      }
      say({ started: pid });
    } catch (error) {
      for (const fd of fds) closeSync(fd);
      say({ error: String((error && error.message) || error) });
    }
  }
})();
