/** Jest settings of @mobileclaw/cluster-nats (shared preset; `npm test` runs every project in one Jest). */
module.exports = require('../../../jest.preset.cjs')(__dirname);
