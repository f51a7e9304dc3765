// spider-rs (npm @spider-rs/spider-rs) as its users run it: one Website from the seed, robots.txt
// respected, the web's other hosts named as its external domains (its way of spanning hosts).
// Its promise resolves when the crawl is done, but the binding keeps node alive after: exit then.
//   node spider.js SEED [HOST_ORIGIN...]
const { Website } = require("@spider-rs/spider-rs");

const [seed, ...others] = process.argv.slice(2);
const website = new Website(seed).withRespectRobotsTxt(true).withExternalDomains(others).build();
website.crawl().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
