"""Scrapy (Debian python3-scrapy) as its users run it: a minimal CrawlSpider that follows every
link within the allowed domain, robots.txt obeyed, Scrapy's default concurrency.

    scrapy runspider scrapy_spider.py -a start=SEED[,SEED...] -a domain=web.test
"""
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class BenchSpider(CrawlSpider):
    name = "bench"
    custom_settings = {
        "ROBOTSTXT_OBEY": True,
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }
    rules = (Rule(LinkExtractor(), follow=True),)

    def __init__(self, start=None, domain=None, *args, **kwargs):
        self.allowed_domains = [domain]
        self.start_urls = start.split(",")
        super().__init__(*args, **kwargs)
