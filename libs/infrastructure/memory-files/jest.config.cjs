/** Jest settings of @mobileclaw/memory-files (shared preset; `npm test` runs every project in one Jest). */
module.exports = require('../../../jest.preset.cjs')(__dirname);
