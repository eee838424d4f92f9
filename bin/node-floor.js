// The Node.js floor of the package.json beside bin/ (the package's own once installed, the
// repository's in a clone), checked before a command's bundle loads: npm only warns of an engine
// it does not meet, and the bundle would then run on a Node.js nsp is not tested on, or fail in
// some obscure way. Written for any Node.js, so that an old one gets to the message.
"use strict";
module.exports = function requireNodeFloor(command) {
  var engines = require("../package.json").engines.node;
  var floor = Number(/^>=\s*(\d+)/.exec(engines)[1]);
  var major = Number(process.versions.node.split(".")[0]);
  if (major < floor) {
    process.stderr.write(
      command +
        ": Node.js >= " +
        floor +
        " is required but this is Node.js " +
        process.version +
        " (" +
        process.execPath +
        "); install Node.js " +
        floor +
        " or later (https://nodejs.org)\n",
    );
    process.exit(1);
  }
};
