import { memoryWords } from '@mobileclaw/domain';

/**
 * A deterministic stand-in for an embedding model, for the benchmark's semantic arm: a text's words
 * (as `memoryWords` segments them) become features — a word or phrase of the small bilingual
 * lexicon below becomes its concept (`wifi`, `wireless`, `无线`, `网络` → WIFI), any other word stays
 * itself, stop words are dropped — and each feature adds ±1 (a concept) or ±{@link WORD_WEIGHT} (a
 * word: names, numbers, values weigh less than the topic, as in a trained model) to one of
 * {@link CONCEPT_DIMENSIONS} dimensions (FNV-1a hash of the feature), the vector normalised to length 1.
 *
 * It knows exactly the synonyms and translations the benchmark's questions use, so the semantic
 * figures show what the retrieval pipeline does with a model that gets those right — not how well
 * any real model would.
 */
export const CONCEPT_DIMENSIONS = 256;
/** Weight of a word that is no concept, against 1 for a concept. */
export const WORD_WEIGHT = 0.5;

/** Concept → the words and phrases (English and Chinese) that mean it. */
export const CONCEPT_LEXICON: Readonly<Record<string, readonly string[]>> = {
  MOM: ['mom', 'mother', 'mum', '妈妈', '母亲', '妈'],
  DAD: ['dad', 'father', '爸爸', '父亲', '爸'],
  SISTER: ['sister', 'sis', 'sibling', '姐姐', '姊姊', '姐'],
  BOSS: ['manager', 'boss', 'supervisor', '领导', '老板', '上司'],
  DENTAL: ['dentist', 'teeth', 'tooth', '牙医', '补牙', '牙'],
  DOCTOR: ['doctor', 'dr', 'physician', '医生', '门诊', '看病'],
  APPOINTMENT: ['appointment', 'see', 'visit', '约', '预约'],
  HOME: ['home', 'house', '家里', '家中', '家', '家庭'],
  WIFI: ['wi-fi', 'wifi', 'wireless', 'network', '无线', '网络', '无线网络'],
  PASSWORD: ['password', 'key', 'passcode', '密码', '口令'],
  OFFICE: ['office', 'work', 'workplace', '公司', '办公室'],
  ADDRESS: ['address', 'live', 'reside', '地址', '住在', '住址', '住'],
  BIRTHDAY: ['birthday', 'born', '生日', '出生'],
  COFFEE: ['coffee', 'latte', '咖啡', '拿铁'],
  MUSIC: ['music', 'songs', 'song', '音乐', '歌', '听'],
  LIKE: ['favourite', 'favorite', 'enjoy', 'prefer', 'prefers', 'preferred', 'like', '喜欢', '爱', '最喜欢'],
  TAKEOUT: ['takeout', 'take-out', 'delivered', 'delivery', '外卖', '叫餐', '送餐'],
  EVENING: ['evening', 'evenings', 'dinner', 'tonight', '晚上', '晚饭'],
  APP: ['app', 'apps', 'application', '应用', '软件'],
  RIDE: ['ride', 'rides', 'cab', 'taxi', '打车', '出租', '的士'],
  CAR: ['car', 'vehicle', '汽车', '车', '车子'],
  PLATE: ['plate', 'registration', '车牌', '牌照', '牌号'],
  PARKING: ['park', 'parked', 'parking', 'leave', '停在', '停车', '车位', '放'],
  ALLERGY: ['allergic', 'allergy', 'intolerant', '过敏', '忌口'],
  GYM: ['gym', 'exercise', 'workout', 'fitness', '健身房', '健身', '锻炼'],
  LANDLORD: ['landlord', 'rent', '房东', '租房', '租'],
  PHONE: ['phone', 'call', 'reach', 'contact', 'number', '电话', '联系方式', '联系', '手机'],
  SEAT: ['seat', 'seating', '座位', '选座', '座'],
  FLIGHT: ['flight', 'flights', 'airplane', 'plane', '飞机', '航班'],
  CLIMATE: ['air conditioner', 'aircon', 'room temperature', 'temperature', 'degrees', '空调', '温度', '室温', '度'],
  WAKE: ['wake', 'wakes', 'woke', 'alarm', '起床', '闹钟', '醒'],
  MORNING: ['morning', 'mornings', '早上', '早晨', '每天早上'],
  WORKDAY: ['weekdays', 'weekday', '工作日'],
  DOG: ['dog', 'puppy', 'pet', '狗', '狗狗', '宠物'],
  MEETING: ['standup', 'meeting', 'sync', 'team', '站会', '例会', '会议', '团队'],
  DAILY: ['daily', 'every day', '每日', '每天'],
  VPN: ['vpn', 'remote', 'remote access', '远程', '远程访问'],
  SERVER: ['server', 'host', '服务器', '主机'],
  DAY: ['day', 'days', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays', '天', '日', '每周', '周一', '周二', '周三', '周四', '周五', '周六', '周日'],
  BILLS: ['bills', 'bill', 'utility', 'electricity', 'charges', '水电费', '电费', '缴费', '电力', '账单'],
  PAY: ['pay', 'pays', 'settle', '付', '交', '支付', '结', '结算'],
  NEWS: ['news', 'headlines', '新闻', '资讯'],
};

/** Words that carry no topic (question words, pronouns, particles): no feature. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...'a an the is are am was were be i me my mine you your we our it its he she his her they them their what who whom which where when why how do does did to of in on at for with from by and or about this that these those now current get name named called time again up take takes order orders most'.split(' '),
  ...'的 是 我 我的 你 他 她 了 吗 呢 吧 啊 在 和 与 用 什么 谁 哪 哪个 哪里 哪位 哪天 几点 怎么 多少 叫 名字 现在 有 我有 去 找 要 一般 点 喝 哪来'.split(' '),
]);

interface LexiconEntry {
  words: string[];
  concept: string;
}

/** Lexicon phrases as word sequences (segmented as texts are), longest first for greedy matching. */
const ENTRIES: readonly LexiconEntry[] = Object.entries(CONCEPT_LEXICON)
  .flatMap(([concept, phrases]) => phrases.map((phrase) => ({ words: memoryWords(phrase), concept })))
  .filter((e) => e.words.length > 0)
  .sort((a, b) => b.words.length - a.words.length);
const BY_FIRST_WORD = new Map<string, LexiconEntry[]>();
for (const entry of ENTRIES) {
  const list = BY_FIRST_WORD.get(entry.words[0]) ?? [];
  list.push(entry);
  BY_FIRST_WORD.set(entry.words[0], list);
}

/**
 * The features of a text, in order of appearance without repeats: `c:<CONCEPT>` for lexicon phrases
 * (longest match first), `w:<word>` for other words; stop words dropped.
 */
export function conceptFeatures(text: string): string[] {
  const words = memoryWords(text);
  const features: string[] = [];
  for (let i = 0; i < words.length; ) {
    const match = BY_FIRST_WORD.get(words[i])?.find((e) => e.words.every((w, j) => words[i + j] === w));
    if (match) {
      features.push(`c:${match.concept}`);
      i += match.words.length;
    } else {
      if (!STOP_WORDS.has(words[i])) features.push(`w:${words[i]}`);
      i += 1;
    }
  }
  return [...new Set(features)];
}

/**
 * The concept embedding of a text: length {@link CONCEPT_DIMENSIONS}, unit length. A text without
 * any feature (only stop words, or empty) gets the vector of one fixed feature, never zeros.
 */
export function conceptEmbedding(text: string): Float32Array {
  const vector = new Float32Array(CONCEPT_DIMENSIONS);
  const features = conceptFeatures(text);
  for (const feature of features.length > 0 ? features : ['∅']) {
    const hash = fnv1a(feature);
    const weight = feature.startsWith('c:') ? 1 : WORD_WEIGHT;
    vector[hash % CONCEPT_DIMENSIONS] += (hash >>> 16) & 1 ? weight : -weight;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  // Features that hash to one dimension with opposite signs can cancel out entirely.
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

/** Cosine similarity of two vectors of one length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** FNV-1a, 32 bits, of the UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
