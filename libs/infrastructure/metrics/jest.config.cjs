/** Jest settings of @mobileclaw/metrics-prometheus (shared preset; `npm test` runs every project in one Jest). */
module.exports = require('../../../jest.preset.cjs')(__dirname);
