// AI crawler operators: who fetches with which robots.txt token, for which
// purpose, and which tokens only state a purpose (control tokens), written by
// hand from each operator's own crawler documentation, read in December 2026
// through stored copies of those pages (no live fetch). Each entry names its
// source and date, and says how sure it is:
//   high:   read on the operator's own page (a stored copy of it);
//   medium: the operator's page is the one cited, but what the entry says was
//           read in a copy, quotation or summary of that page (`via`), or only
//           in part, or rests on another page not re-read (an edition of the
//           page in another language, on the operator's own site, counts as
//           the page);
//   low:    no page of the operator was found; the entry follows ai.robots.txt
//           (cited as such) or a third party, and its note says so.
// Purposes are AIPREF vocab-08's labels (`search`, `train-ai`, `ai-use`) and
// `user`: a fetch a person asked for, which operators often exempt from
// robots.txt (`respectsRobots` records what the operator says of it).
//
// To update: re-read each source, change what changed, set the entry's date to
// the page's date (or `read YYYY-MM`), and run test/engine/operators-data.test.ts
// (which also checks the tokens against src/data/ai-crawlers.ts). docs/operators.md
// shows the same data as a table; keep it in step.
//
// Plain data: no logic beyond lookups. Callers may add their own operators and
// control tokens (the types are exported); nothing here is global state.
import { asciiLower } from '../text/ascii.js';

/** What a fetch is for, in AIPREF vocab-08's labels, plus `user` (a fetch a person asked for). */
export type OperatorPurpose = 'search' | 'train-ai' | 'ai-use' | 'user';
export const OPERATOR_PURPOSES: readonly OperatorPurpose[] = Object.freeze(['search', 'train-ai', 'ai-use', 'user']);

/** How sure an entry is (see the header). */
export type Confidence = 'high' | 'medium' | 'low';

/**
 * What the operator says of robots.txt for a token: `obeys` (its group is
 * followed), `may-ignore` (the operator says rules may not apply, as for
 * fetches a user asked for), `ignores` (the operator says it does not follow
 * them), `unclear` (sources disagree or say nothing; the note says which).
 */
export type RobotsStance = 'obeys' | 'may-ignore' | 'ignores' | 'unclear';

export interface Source {
  /** The page cited: the operator's own documentation where one was found. */
  url: string;
  /** The page's own date when it gives one (`YYYY-MM` or `YYYY-MM-DD`), else `read YYYY-MM`: when it was read. */
  date: string;
  /** Where the text was read when not on the page itself: a copy, quotation or summary of it. */
  via?: string;
}

/** A token something fetches as. */
export interface OperatorCrawler {
  /** The product token for a User-agent line. */
  token: string;
  /** What it fetches for (a crawler whose fetches also serve purposes governed by a control token lists them; see the note). */
  purposes: readonly OperatorPurpose[];
  respectsRobots: RobotsStance;
  source: Source;
  confidence: Confidence;
  note?: string;
}

/** A token nothing fetches as: its group's verdict states a preference for the purposes it governs. */
export interface ControlToken {
  token: string;
  /** The purposes its verdict governs (AIPREF labels only). */
  governs: readonly Exclude<OperatorPurpose, 'user'>[];
  source: Source;
  confidence: Confidence;
  note?: string;
}

/** A control outside robots.txt that the operator documents for a purpose (a robots meta tag). */
export interface OtherControl {
  control: string;
  governs: readonly Exclude<OperatorPurpose, 'user'>[];
  source: Source;
  confidence: Confidence;
  note?: string;
}

/** A token the operator no longer documents, kept so that a file naming it can be explained. */
export interface FormerToken {
  token: string;
  source: Source;
  note: string;
}

export interface Operator {
  /** A lower-case slug: 'openai', 'google', ... */
  id: string;
  name: string;
  /** Other names lists give the operator (ai.robots.txt's operator field), for matching them. */
  aliases: readonly string[];
  crawlers: readonly OperatorCrawler[];
  controlTokens: readonly ControlToken[];
  otherControls: readonly OtherControl[];
  formerTokens: readonly FormerToken[];
  /** The pages the entries cite, the operator's own first. */
  sources: readonly Source[];
  note?: string;
}

// ai.robots.txt (MIT), the revision src/data/ai-crawlers.ts is generated from: cited where no page of the operator was found.
const AI_ROBOTS_TXT: Source = { url: 'https://github.com/ai-robots-txt/ai.robots.txt/blob/738c80df2169027ce0e07c9976fd3f2f57dd8f7b/robots.json', date: '2026-08-22' };
const READ = 'read 2026-12';

// ---- OpenAI ----------------------------------------------------------------
const OPENAI_BOTS: Source = {
  url: 'https://developers.openai.com/api/docs/bots',
  date: READ,
  via: 'https://crawlerpolicy.com/sources/gptbot (a summary of the page, snapshot 2026-04-19) and a stored copy of the openai.com/gptbot page',
};

// ---- Anthropic -------------------------------------------------------------
// The zh-TW edition of Anthropic's help-centre article 8896518 was read in full; its English
// edition (linked by ai.robots.txt) as quoted by seroundtable.com; they agree.
const ANTHROPIC_BOTS: Source = { url: 'https://privacy.claude.com/zh-TW/articles/8896518-anthropic-%E6%98%AF%E5%90%A6%E5%BE%9E%E7%B6%B2%E8%B7%AF%E7%88%AC%E5%8F%96%E8%B3%87%E6%96%99-%E7%B6%B2%E7%AB%99%E6%89%80%E6%9C%89%E8%80%85%E5%A6%82%E4%BD%95%E9%98%BB%E6%AD%A2%E7%88%AC%E8%9F%B2', date: READ };
const ANTHROPIC_BOTS_EN: Source = {
  url: 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler',
  date: '2026-02-20',
  via: 'https://www.seroundtable.com/anthropic-updates-its-crawler-docs-40978.html (quotes the page as updated on that day)',
};

// ---- Google ----------------------------------------------------------------
const GOOGLE_OVERVIEW: Source = { url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/overview-google-crawlers', date: READ };
const GOOGLE_EXTENDED: Source = { url: 'https://developers.google.cn/crawling/docs/google-extended?hl=zh-cn', date: READ };
const GOOGLE_COMMON: Source = {
  url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers',
  date: 'read 2026-11',
  via: 'src/data/google-crawlers.ts, written from this page (not re-read here)',
};
const GOOGLE_USER_TRIGGERED: Source = { url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers', date: READ };
const GOOGLE_CHANGELOG: Source = { url: 'https://developers.google.com/crawling/docs/changelog', date: '2026-10-30' };

// ---- Apple -----------------------------------------------------------------
const APPLE_BOT: Source = {
  url: 'https://support.apple.com/en-us/119829',
  date: READ,
  via: 'https://crawlerpolicy.com/sources/applebot-extended (a summary of the page) and the page as quoted on news.ycombinator.com (item 40640132)',
};

// ---- Perplexity ------------------------------------------------------------
const PERPLEXITY_BOTS: Source = {
  url: 'https://docs.perplexity.ai/docs/resources/perplexity-crawlers',
  date: READ,
  via: 'the page\'s introduction only; Perplexity-User as quoted from https://docs.perplexity.ai/guides/bots on news.ycombinator.com (items 44787328, 44788294)',
};

// ---- Common Crawl ----------------------------------------------------------
const CC_FAQ: Source = {
  url: 'https://commoncrawl.org/big-picture/frequently-asked-questions/',
  date: '2026-05-28',
  via: 'https://crawlerpolicy.com/sources/ccbot (the FAQ\'s diff of 2026-05-28, which refers to a separate CCBot page: https://commoncrawl.org/ccbot, not read)',
};

// ---- Meta ------------------------------------------------------------------
const META_CRAWLERS: Source = {
  url: 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/',
  date: READ,
  via: 'https://crawlerpolicy.com/sources/meta-externalagent (a summary of the page; the page itself was not read)',
};

// ---- Amazon ----------------------------------------------------------------
const AMAZONBOT: Source = { url: 'https://developer.amazon.com/amazonbot', date: READ };
const AMAZON_OTHERS: Source = {
  url: 'https://developer.amazon.com/amazonbot',
  date: '2026-04-19',
  via: 'https://crawlerpolicy.com/sources/amazonbot (a summary of the page, snapshot 2026-04-19; the stored copies of the page read here name Amazonbot only)',
};

// ---- Microsoft -------------------------------------------------------------
const BING_CHAT_CONTROLS: Source = {
  url: 'https://blogs.bing.com/webmaster/september-2023/Announcing-new-options-for-webmasters-to-control-usage-of-their-content-in-Bing-Chat',
  date: '2023-09',
};
const BINGBOT_ROBOTS: Source = { url: 'https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question', date: '2012-05-03' };

// ---- Mistral ---------------------------------------------------------------
const MISTRAL_BOTS: Source = { url: 'https://docs.mistral.ai/en/robots', date: READ };

// ---- DuckDuckGo ------------------------------------------------------------
const DUCKASSISTBOT: Source = { url: 'https://duckduckgo.github.io/duckduckgo-help-pages/results/duckassistbot/', date: READ };
const DUCKDUCKBOT_THIRD_PARTY: Source = { url: 'https://51degrees.tv/blog/duckduckgo-crawlers-2026', date: READ };

// ---- You.com ---------------------------------------------------------------
const YOUBOT: Source = { url: 'https://docs.you.com/youbot', date: READ };

/** The draft that will name a shared per-purpose control token, and what is known of it. */
export const TRAINING_PREFERENCE_DRAFT = Object.freeze({
  name: 'draft-kelley-aipref-training-preference-signal-00',
  url: 'https://datatracker.ietf.org/doc/draft-kelley-aipref-training-preference-signal/',
  date: '2026-10-30',
  /** The per-purpose policy token the draft defines: not confirmed (only its abstract was read). */
  token: null as string | null,
  note:
    'Binds usage preferences ("no AI training") to paths with ordinary robots.txt groups keyed by a per-purpose policy token in the User-Agent line; no new grammar. ' +
    'Only the abstract and front matter were read (datatracker, ietf.org/archive/id/draft-kelley-aipref-training-preference-signal-00.html): the token string is not confirmed, so no control token is shipped for it. ' +
    'Google\'s changelog of 2026-10-30 says Google intends to support "the shared machine-readable training preference signal".',
});

export const OPERATORS: readonly Operator[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    aliases: [],
    crawlers: [
      {
        token: 'GPTBot',
        purposes: ['train-ai'],
        respectsRobots: 'obeys',
        source: OPENAI_BOTS,
        confidence: 'medium',
        note: 'Crawls content that may be used in training OpenAI\'s generative AI foundation models; disallowing it "indicates a site\'s content should not be used in training". OpenAI says each token\'s setting is independent of the others, and that where a site allows both GPTBot and OAI-SearchBot one crawl may serve both uses.',
      },
      {
        token: 'OAI-SearchBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: OPENAI_BOTS,
        confidence: 'medium',
        note: 'Surfaces websites in ChatGPT\'s search features; not used to crawl content for training. Sites opted out are not shown in ChatGPT search answers but may still appear as navigational links. The answers are generated: whether this is AIPREF `ai-use` the page does not say in those terms.',
      },
      {
        token: 'ChatGPT-User',
        purposes: ['user'],
        respectsRobots: 'may-ignore',
        source: OPENAI_BOTS,
        confidence: 'medium',
        note: 'User actions in ChatGPT and Custom GPTs (a page visited to answer a question, GPT Actions); not automatic crawling, not used for training. The 2026 page says robots.txt rules may not apply to these user-initiated requests (an earlier text said ChatGPT-User "governs which sites these user requests can be made to").',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [OPENAI_BOTS],
    note: 'OpenAI also documents OAI-AdsBot (checks landing pages submitted as ChatGPT ads; none of these purposes) and ai.robots.txt lists "ChatGPT Agent" (not a product token); neither is shipped here.',
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    aliases: [],
    crawlers: [
      {
        token: 'ClaudeBot',
        purposes: ['train-ai'],
        respectsRobots: 'obeys',
        source: ANTHROPIC_BOTS,
        confidence: 'high',
        note: 'Collects web content that could contribute to training Anthropic\'s generative AI models; restricting it signals that the site\'s future materials should be excluded from training datasets. Anthropic says its bots honour robots.txt (and Crawl-delay), per subdomain, and that blocking IP addresses is not a reliable opt-out.',
      },
      {
        token: 'Claude-SearchBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: ANTHROPIC_BOTS,
        confidence: 'high',
        note: 'Navigates the web to improve search result quality for users (relevance and accuracy of search responses). Whether those responses make it AIPREF `ai-use` the page does not say in those terms.',
      },
      {
        token: 'Claude-User',
        purposes: ['user'],
        respectsRobots: 'obeys',
        source: ANTHROPIC_BOTS,
        confidence: 'high',
        note: 'Fetches when a person asks Claude a question; Anthropic says Claude-User lets site owners control which sites these user-initiated requests may reach, and that disabling it prevents retrieval in response to a user query.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [
      { token: 'anthropic-ai', source: AI_ROBOTS_TXT, note: 'Not on Anthropic\'s current page; ai.robots.txt: "Scrapes data to train Anthropic\'s AI products", respect unclear.' },
      { token: 'Claude-Web', source: AI_ROBOTS_TXT, note: 'Not on Anthropic\'s current page; ai.robots.txt: "Undocumented AI Agents".' },
    ],
    sources: [ANTHROPIC_BOTS, ANTHROPIC_BOTS_EN, AI_ROBOTS_TXT],
    note: 'draft-kelley-aipref-training-preference-signal (a shared per-purpose training token) is by an Anthropic author; see TRAINING_PREFERENCE_DRAFT.',
  },
  {
    id: 'google',
    name: 'Google',
    aliases: [],
    crawlers: [
      {
        token: 'Googlebot',
        purposes: ['search', 'train-ai', 'ai-use'],
        respectsRobots: 'obeys',
        source: GOOGLE_EXTENDED,
        confidence: 'high',
        note: 'Google Search\'s crawler (the common crawlers "always respect robots.txt rules for automatic crawls": ' + GOOGLE_OVERVIEW.url + '). Google-Extended\'s page says Googlebot, GoogleOther and other crawlers related to training and grounding record a page\'s Google-Extended status when they fetch it, and Google\'s systems then keep disallowed content out of training and of grounding outside Search: so its fetches serve `train-ai` and `ai-use` as Google-Extended governs. AI features of Google Search itself are governed by Googlebot alone (Google-Extended does not affect Search). Read in the zh-cn edition of that page.',
      },
      {
        token: 'GoogleOther',
        purposes: ['train-ai', 'ai-use'],
        respectsRobots: 'obeys',
        source: GOOGLE_EXTENDED,
        confidence: 'medium',
        note: 'A common crawler for one-off crawls of Google teams (' + GOOGLE_COMMON.url + ', as src/data/google-crawlers.ts records it); named on Google-Extended\'s page among the crawlers that record the Google-Extended status, so what it fetches may train and ground as Google-Extended governs. Which products it fetches for Google does not list.',
      },
      {
        token: 'Google-CloudVertexBot',
        purposes: ['ai-use'],
        respectsRobots: 'obeys',
        source: GOOGLE_COMMON,
        confidence: 'medium',
        note: 'Crawls for Vertex AI Agents at the request of the site\'s owner (as src/data/google-crawlers.ts records Google\'s common crawlers page, read 2026-11; not re-read here). A common crawler, so it obeys robots.txt for automatic crawls.',
      },
      {
        token: 'Google-GeminiNotebook',
        purposes: ['user'],
        respectsRobots: 'may-ignore',
        source: GOOGLE_USER_TRIGGERED,
        confidence: 'medium',
        note: 'Gemini Notebook, on Google\'s list of user-triggered fetchers (read in its ja edition); Google says these fetchers "generally ignore robots.txt rules" because a user requested the fetch. A product token of its user-agent string, not one Google gives for a User-agent line.',
      },
    ],
    controlTokens: [
      {
        token: 'Google-Extended',
        governs: ['train-ai', 'ai-use'],
        source: GOOGLE_EXTENDED,
        confidence: 'high',
        note: 'A standalone product token: whether content Google crawls may be used to train future generations of the foundation models behind Google\'s generative AI products and for grounding in those products (providing content from the Search index to the model at prompt time), Search excepted. Not a ranking signal; does not affect inclusion in Search. Exceptions on the page: safety and anti-abuse models, specialised task models, accessibility, transcription and translation. Read in the zh-cn edition. Google\'s changelog of 2026-10-30 adds a note that Google intends to support the shared machine-readable training preference signal.',
      },
    ],
    otherControls: [],
    formerTokens: [],
    sources: [GOOGLE_EXTENDED, GOOGLE_OVERVIEW, GOOGLE_COMMON, GOOGLE_USER_TRIGGERED, GOOGLE_CHANGELOG],
    note: 'Google\'s other crawlers and fetchers (Googlebot-Image, AdsBot-Google, FeedFetcher-Google, ...) are in src/data/google-crawlers.ts. ai.robots.txt also lists Gemini-Deep-Research, GoogleAgent-Mariner, GoogleAgent-URLContext, Google-Firebase and Google-NotebookLM, none of them confirmed on Google\'s pages here.',
  },
  {
    id: 'apple',
    name: 'Apple',
    aliases: [],
    crawlers: [
      {
        token: 'Applebot',
        purposes: ['search', 'train-ai'],
        respectsRobots: 'obeys',
        source: APPLE_BOT,
        confidence: 'medium',
        note: 'Powers search in Spotlight, Siri and Safari; follows robots.txt (and Googlebot\'s rules where no group names Applebot, per the summary). Applebot-Extended decides whether what Applebot crawls may train Apple\'s foundation models, so its fetches serve `train-ai` as Applebot-Extended governs.',
      },
    ],
    controlTokens: [
      {
        token: 'Applebot-Extended',
        governs: ['train-ai'],
        source: APPLE_BOT,
        confidence: 'medium',
        note: 'A secondary user agent that does not crawl: web publishers can opt out of their content being used to train Apple\'s foundation models powering generative AI features across Apple products (Apple Intelligence, Services, Developer Tools). Opting out does not remove a site from Spotlight or Siri.',
      },
    ],
    otherControls: [],
    formerTokens: [],
    sources: [APPLE_BOT],
  },
  {
    id: 'perplexity',
    name: 'Perplexity',
    aliases: [],
    crawlers: [
      {
        token: 'PerplexityBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: PERPLEXITY_BOTS,
        confidence: 'medium',
        note: 'Perplexity\'s page lists robots.txt tags, each independent, changes within 24 hours; its table was not read. ai.robots.txt (respect: yes, linking Perplexity\'s page) calls it "Search result generation". Whether it is also AIPREF `ai-use` (Perplexity answers are generated) is not confirmed.',
      },
      {
        token: 'Perplexity-User',
        purposes: ['user'],
        respectsRobots: 'unclear',
        source: PERPLEXITY_BOTS,
        confidence: 'low',
        note: 'Supports user actions: visits a page to answer a question and links it; not used for web crawling or training (Perplexity\'s page as quoted on news.ycombinator.com). Whether it follows robots.txt is unclear: that quotation says it "controls which sites these user requests can access", while ai.robots.txt (respect: no, linking the same page) and another comment citing the page say it ignores robots.txt because a user requested the fetch.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [PERPLEXITY_BOTS, AI_ROBOTS_TXT],
  },
  {
    id: 'common-crawl',
    name: 'Common Crawl',
    aliases: ['Common Crawl Foundation'],
    crawlers: [
      {
        token: 'CCBot',
        purposes: ['train-ai'],
        respectsRobots: 'obeys',
        source: CC_FAQ,
        confidence: 'medium',
        note: 'Builds an open copy of the web for research and analysis that others use, machine-learning training among them: `train-ai` is the use others make of the corpus, not Common Crawl\'s own. Checks robots.txt first (RFC 9309) and fetches only what it allows.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [CC_FAQ],
  },
  {
    id: 'meta',
    name: 'Meta',
    aliases: ['Facebook', 'Meta/Facebook'],
    crawlers: [
      {
        token: 'meta-externalagent',
        purposes: ['train-ai'],
        respectsRobots: 'obeys',
        source: META_CRAWLERS,
        confidence: 'medium',
        note: 'Trains foundation AI models and improves products by indexing content directly (summary of Meta\'s page); ai.robots.txt: "Used to train models and improve products", respect yes.',
      },
      {
        token: 'meta-webindexer',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: META_CRAWLERS,
        confidence: 'medium',
        note: 'Improves the quality and relevance of Meta AI\'s search results; the answers are Meta AI\'s, so AIPREF `ai-use` may apply, which the summary does not settle.',
      },
      {
        token: 'meta-externalfetcher',
        purposes: ['user'],
        respectsRobots: 'may-ignore',
        source: META_CRAWLERS,
        confidence: 'medium',
        note: 'Fetches individual links at a user\'s request (agentic tasks); robots.txt rules may be bypassed because the fetches are user-requested.',
      },
      {
        token: 'facebookexternalhit',
        purposes: ['user'],
        respectsRobots: 'may-ignore',
        source: META_CRAWLERS,
        confidence: 'medium',
        note: 'Fetches content shared on Facebook, Instagram and Messenger for link previews (title, description, thumbnail): shares are user actions; may bypass robots.txt for security checks. ai.robots.txt suspects AI use as well (respect: no), which Meta does not say.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [META_CRAWLERS, AI_ROBOTS_TXT],
    note: 'Meta\'s page also lists Meta-ExternalAds (advertising); ai.robots.txt also lists FacebookBot ("Training language models"), not on the summary of Meta\'s current page.',
  },
  {
    id: 'amazon',
    name: 'Amazon',
    aliases: [],
    crawlers: [
      {
        token: 'Amazonbot',
        purposes: ['train-ai', 'ai-use'],
        respectsRobots: 'obeys',
        source: AMAZONBOT,
        confidence: 'medium',
        note: 'Improves Amazon\'s services, such as enabling Alexa to answer questions; the 2026 page (summary) adds training Amazon AI models. Honours User-agent and Allow/Disallow but not Crawl-delay; if robots.txt cannot be fetched (and no copy of the last 30 days) it crawls as if there were none. `ai-use` is read from "Alexa answers", not a word of Amazon\'s.',
      },
      {
        token: 'Amzn-SearchBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: AMAZON_OTHERS,
        confidence: 'medium',
        note: 'Improves search experiences in Amazon products (Alexa, Rufus); does not train generative AI. Read in a summary of Amazon\'s page only.',
      },
      {
        token: 'Amzn-User',
        purposes: ['user'],
        respectsRobots: 'obeys',
        source: AMAZON_OTHERS,
        confidence: 'medium',
        note: 'Fetches live information for user queries (Alexa); does not train generative AI; the summary gives a robots.txt Disallow as its opt-out. Read in a summary of Amazon\'s page only.',
      },
    ],
    controlTokens: [],
    otherControls: [
      {
        control: '<meta name="robots" content="noarchive">',
        governs: ['train-ai'],
        source: AMAZONBOT,
        confidence: 'high',
        note: 'Amazonbot supports a page-level NOARCHIVE robots meta tag as a signal that crawled data should not be used to train large language models.',
      },
    ],
    formerTokens: [],
    sources: [AMAZONBOT, AMAZON_OTHERS],
    note: 'ai.robots.txt also lists amazon-kendra, bedrockbot, AmazonBuyForMe and NovaAct (customer or agent fetchers), not shipped here.',
  },
  {
    id: 'bytedance',
    name: 'ByteDance',
    aliases: ['TikTok'],
    crawlers: [
      {
        token: 'Bytespider',
        purposes: ['train-ai'],
        respectsRobots: 'unclear',
        source: AI_ROBOTS_TXT,
        confidence: 'low',
        note: 'No crawler page of ByteDance was found. ai.robots.txt: "LLM training", respect: no; third parties report both ignoring and honouring robots.txt.',
      },
      {
        token: 'TikTokSpider',
        purposes: ['train-ai'],
        respectsRobots: 'unclear',
        source: AI_ROBOTS_TXT,
        confidence: 'low',
        note: 'No crawler page of ByteDance was found. ai.robots.txt: "LLM training", respect unclear.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [AI_ROBOTS_TXT],
    note: 'Unclear source: ByteDance publishes no crawler documentation that was found; both entries follow ai.robots.txt.',
  },
  {
    id: 'microsoft',
    name: 'Microsoft',
    aliases: ['Bing'],
    crawlers: [
      {
        token: 'bingbot',
        purposes: ['search', 'train-ai', 'ai-use'],
        respectsRobots: 'obeys',
        source: BING_CHAT_CONTROLS,
        confidence: 'high',
        note: 'Bing\'s crawler (robots.txt read per host: ' + BINGBOT_ROBOTS.url + ', 2012). Content in the Bing index without NOCACHE or NOARCHIVE may appear in Bing Chat answers and be used to train Microsoft\'s generative AI foundation models: AI use is controlled by meta tags, not by a robots.txt token (see otherControls). Content with either tag still appears in search results.',
      },
    ],
    controlTokens: [],
    otherControls: [
      {
        control: '<meta name="robots" content="nocache">',
        governs: ['train-ai', 'ai-use'],
        source: BING_CHAT_CONTROLS,
        confidence: 'high',
        note: 'May appear in Bing Chat answers with URL, title and snippet only; only URLs, titles and snippets may be used in training. With both NOCACHE and NOARCHIVE, NOCACHE applies.',
      },
      {
        control: '<meta name="robots" content="noarchive">',
        governs: ['train-ai', 'ai-use'],
        source: BING_CHAT_CONTROLS,
        confidence: 'high',
        note: 'Not included in Bing Chat answers nor linked from them; not used to train Microsoft\'s generative AI foundation models.',
      },
    ],
    formerTokens: [],
    sources: [BING_CHAT_CONTROLS, BINGBOT_ROBOTS],
    note: 'The Bing announcement is of 2023-09 (Bing Chat); no later Microsoft page on Copilot and robots.txt was found, so whether it still holds for Copilot is not confirmed.',
  },
  {
    id: 'mistral',
    name: 'Mistral',
    aliases: ['Mistral AI'],
    crawlers: [
      {
        token: 'MistralAI-User',
        purposes: ['user'],
        respectsRobots: 'obeys',
        source: MISTRAL_BOTS,
        confidence: 'high',
        note: 'User actions in Vibe (Mistral\'s assistant): a page visited to help answer and linked. "MistralAI-User governs which sites these user requests can be made to"; not automatic crawling, not training. ai.robots.txt also lists it as "MistralAI-User/1.0", not a product token.',
      },
      {
        token: 'MistralAI-Index',
        purposes: ['search', 'ai-use'],
        respectsRobots: 'obeys',
        source: MISTRAL_BOTS,
        confidence: 'high',
        note: 'Automated crawling for indexing only: indexes content for Mistral search, "which helps answer user questions in Vibe"; not used for generative AI training of any kind. `obeys` is read from Mistral presenting these as robots.txt tags.',
      },
      {
        token: 'MistralAI-Training',
        purposes: ['train-ai'],
        respectsRobots: 'obeys',
        source: MISTRAL_BOTS,
        confidence: 'medium',
        note: 'Crawls web content to help build datasets for training Mistral\'s generative AI models; the stored text breaks off at "Webmasters can", so the opt-out wording was not read.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [MISTRAL_BOTS],
  },
  {
    id: 'cohere',
    name: 'Cohere',
    aliases: [],
    crawlers: [
      {
        token: 'cohere-ai',
        purposes: ['user'],
        respectsRobots: 'unclear',
        source: AI_ROBOTS_TXT,
        confidence: 'low',
        note: 'No crawler page of Cohere was found. ai.robots.txt: "Retrieves data to provide responses to user-initiated prompts", respect unclear.',
      },
      {
        token: 'cohere-training-data-crawler',
        purposes: ['train-ai'],
        respectsRobots: 'unclear',
        source: AI_ROBOTS_TXT,
        confidence: 'low',
        note: 'No crawler page of Cohere was found. ai.robots.txt: downloads training data for Cohere\'s LLMs, respect unclear.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [AI_ROBOTS_TXT],
    note: 'Unclear source: Cohere\'s own crawler documentation was not found; both entries follow ai.robots.txt.',
  },
  {
    id: 'duckduckgo',
    name: 'DuckDuckGo',
    aliases: [],
    crawlers: [
      {
        token: 'DuckDuckBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: DUCKDUCKBOT_THIRD_PARTY,
        confidence: 'low',
        note: 'DuckDuckGo\'s search crawler. DuckDuckGo\'s own DuckDuckBot page (its user-agent string names duckduckgo.com/duckduckbot.html) was not found in the stored corpora; this follows a third party (51Degrees), which says DuckDuckGo\'s crawlers follow robots.txt with changes taking up to 72 hours. Not in ai.robots.txt.',
      },
      {
        token: 'DuckAssistBot',
        purposes: ['ai-use'],
        respectsRobots: 'obeys',
        source: DUCKASSISTBOT,
        confidence: 'high',
        note: 'Crawls pages in real time for answers generated by DuckAssist, which cites its sources; "not used in any way to train AI models". Publishers opt out of being a source by disallowing DuckAssistBot in robots.txt (effective after 72 hours).',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [DUCKASSISTBOT, DUCKDUCKBOT_THIRD_PARTY],
  },
  {
    id: 'you',
    name: 'You.com',
    aliases: ['You'],
    crawlers: [
      {
        token: 'YouBot',
        purposes: ['search'],
        respectsRobots: 'obeys',
        source: YOUBOT,
        confidence: 'high',
        note: 'The crawler that powers the You.com search engine; respects robots.txt and crawl-rate preferences. ai.robots.txt says "search engine and LLMs"; You.com\'s page does not mention training or AI answers.',
      },
    ],
    controlTokens: [],
    otherControls: [],
    formerTokens: [],
    sources: [YOUBOT],
  },
];

/** A control token with its operator: the view the purpose verdicts read. */
export interface OperatorControlToken extends ControlToken {
  operator: string;
}

export const CONTROL_TOKENS: readonly OperatorControlToken[] = OPERATORS.flatMap((o) => o.controlTokens.map((c) => ({ ...c, operator: o.id })));

/** The operator of an id ('openai', 'google', ...), or undefined. */
export function operatorById(id: string): Operator | undefined {
  return OPERATORS.find((o) => o.id === id);
}

/** The control token of a name, case aside (ASCII), or undefined. */
export function controlTokenOf(name: string): OperatorControlToken | undefined {
  const n = asciiLower(name);
  return CONTROL_TOKENS.find((c) => asciiLower(c.token) === n);
}

/** The operator a token (a crawler's or a control token) belongs to, case aside (ASCII), or undefined. */
export function operatorOfToken(name: string): Operator | undefined {
  const n = asciiLower(name);
  return OPERATORS.find((o) => o.crawlers.some((c) => asciiLower(c.token) === n) || o.controlTokens.some((c) => asciiLower(c.token) === n));
}
