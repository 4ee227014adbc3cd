'use strict';
const path = require('path');
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constant path [2:0-2:29]
//                   ^^^^^^ reference imports path

/** Turns "Hello World" into "hello-world". */
exports.slugify = function (text) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function slugify [5:0-7:2]
  return text.trim().toLowerCase().replace(/\s+/g, '-');
//            ^^^^ reference calls text.trim (from slugify)
//                   ^^^^^^^^^^^ reference calls toLowerCase (from slugify)
//                                 ^^^^^^^ reference calls replace (from slugify)
};

function Parser(options) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Parser [9:0-11:1]
  this.options = options || {};
}

Parser.prototype.parse = function (input) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Parser.parse [13:0-15:2]
  return input.split(path.sep).map(exports.slugify);
//             ^^^^^ reference calls input.split (from Parser.parse)
//                             ^^^ reference calls map (from Parser.parse)
};

module.exports.Parser = Parser;
// ----- travsr snapshot: src/legacy/util.js (typescript, phase A, status ok) -----
// node file <file> (util.js)
// skeleton Parser.parse: "Parser.prototype.parse = function (input)"
// skeleton Parser: "function Parser(options)"
// skeleton path: "const path = require('path');"
// skeleton slugify: "/** Turns \"Hello World\" into \"hello-world\". */\nexports.slugify = function (text)"
// edge contains <file> -> Parser (confidence 1, phase-a)
// edge contains <file> -> Parser.parse (confidence 1, phase-a)
// edge contains <file> -> path (confidence 1, phase-a)
// edge contains <file> -> slugify (confidence 1, phase-a)
