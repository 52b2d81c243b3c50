/** Jest settings of @mobileclaw/embeddings-openai (shared preset; `npm test` runs every project in one Jest). */
module.exports = require('../../../jest.preset.cjs')(__dirname);
