// spider-rs (npm @spider-rs/spider-rs) as its users run it: one Website from each seed (several
// seeds, comma-separated, crawl at once), robots.txt respected, the web's other hosts named as its
// external domains (its way of spanning hosts). Its promise resolves when the crawl is done, but
// the binding keeps node alive after: exit then.
//   node spider.js SEED[,SEED...] [HOST_ORIGIN...]
const { Website } = require("@spider-rs/spider-rs");

const [seeds, ...others] = process.argv.slice(2);
const crawls = seeds.split(",").map((seed) =>
  new Website(seed).withRespectRobotsTxt(true).withExternalDomains(others).build().crawl(),
);
Promise.all(crawls).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
