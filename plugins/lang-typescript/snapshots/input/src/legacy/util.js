'use strict';
const path = require('path');

/** Turns "Hello World" into "hello-world". */
exports.slugify = function (text) {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
};

function Parser(options) {
  this.options = options || {};
}

Parser.prototype.parse = function (input) {
  return input.split(path.sep).map(exports.slugify);
};

module.exports.Parser = Parser;
