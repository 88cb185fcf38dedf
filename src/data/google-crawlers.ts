// Google's crawlers and fetchers by their robots.txt tokens, for the tester
// page's pick-list, from Google's documentation (Search Central, "Google's
// common crawlers", "special-case crawlers" and "user-triggered fetchers",
// developers.google.com/search/docs/crawling-indexing/, read 2026-11). A note
// says where the token's robots.txt group does not mean what it seems.

export interface GoogleCrawler {
  /** The token for a User-agent line. */
  name: string;
  /** What it crawls for. */
  purpose: string;
  /** What a webmaster must know beyond the verdict ('' for none). */
  note: string;
}

const IGNORES_STAR = 'Google says it ignores the "User-agent: *" group: only a group naming it applies (the verdicts here apply "*" as the parser does).';
const USER_TRIGGERED = 'A fetcher a user triggers: Google says these generally ignore robots.txt.';

export const GOOGLE_CRAWLERS: readonly GoogleCrawler[] = [
  { name: 'Googlebot', purpose: 'Google Search (smartphone and desktop)', note: '' },
  { name: 'Googlebot-Image', purpose: 'Google Images and image features of Search', note: '' },
  { name: 'Googlebot-News', purpose: 'Google News', note: '' },
  { name: 'Googlebot-Video', purpose: 'video features of Search', note: '' },
  { name: 'Storebot-Google', purpose: 'Google Shopping', note: '' },
  { name: 'Google-InspectionTool', purpose: 'Search Console URL inspection, Rich Results Test', note: '' },
  { name: 'GoogleOther', purpose: 'one-off crawls of Google teams', note: '' },
  { name: 'GoogleOther-Image', purpose: 'one-off image fetches', note: '' },
  { name: 'GoogleOther-Video', purpose: 'one-off video fetches', note: '' },
  { name: 'Google-CloudVertexBot', purpose: 'Vertex AI Agents, for the site owner', note: '' },
  { name: 'Google-Extended', purpose: 'use in Gemini and Vertex AI (a control token)', note: 'A control token, not a crawler: nothing fetches as Google-Extended; its group says whether what Google\'s crawlers fetch may train and ground Gemini.' },
  { name: 'AdsBot-Google', purpose: 'Google Ads landing pages (desktop)', note: IGNORES_STAR },
  { name: 'AdsBot-Google-Mobile', purpose: 'Google Ads landing pages (mobile)', note: IGNORES_STAR },
  { name: 'Mediapartners-Google', purpose: 'AdSense', note: '' },
  { name: 'APIs-Google', purpose: 'push notifications of Google APIs', note: IGNORES_STAR },
  { name: 'FeedFetcher-Google', purpose: 'RSS and Atom feeds (Google News, WebSub)', note: USER_TRIGGERED },
  { name: 'Google-Read-Aloud', purpose: 'text-to-speech of a page', note: USER_TRIGGERED },
  { name: 'Google-Site-Verification', purpose: 'Search Console ownership check', note: USER_TRIGGERED },
];
