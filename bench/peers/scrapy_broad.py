"""Scrapy (Debian python3-scrapy) set up for a broad crawl as its "Broad Crawls" page advises, at
crawl's politeness: one request at a time per host, 1 s between them (not randomised), robots.txt
obeyed, breadth first with FIFO queues, many requests in flight, no cookies, retries or
redirects. Its names are answered by the test web's DNS server through a resolver of its own
(twisted.names asking for A records), given on the command line, where Scrapy reads DNS_RESOLVER:

    PYTHONPATH=bench/peers scrapy runspider scrapy_broad.py -a start=SEED -a domain=web.test \
        -s DNS_RESOLVER=scrapy_broad.TestWebResolver -s TESTWEB_DNS=127.0.0.1:PORT

Three things found while setting it up: DNS_RESOLVER has no effect in a spider's custom_settings;
twisted's getHostByName asks for ANY records, which the test web's server does not answer; and
LinkExtractor(allow_domains=...) drops every URL with a port, so allowed_domains filters alone.
"""
from scrapy_spider import BenchSpider
from twisted.internet import defer
from twisted.internet.interfaces import IResolverSimple
from twisted.names import client, dns
from zope.interface import implementer


@implementer(IResolverSimple)
class TestWebResolver:
    """Each name asked once of the test web's DNS server, its first A record kept."""

    def __init__(self, reactor, server):
        self.reactor = reactor
        self.resolver = client.Resolver(servers=[server], reactor=reactor)
        self.cache = {}

    @classmethod
    def from_crawler(cls, crawler, reactor):
        host, port = crawler.settings.get("TESTWEB_DNS").rsplit(":", 1)
        return cls(reactor, (host, int(port)))

    def install_on_reactor(self):
        self.reactor.installResolver(self)

    def getHostByName(self, name, timeout=()):
        if name in self.cache:
            return defer.succeed(self.cache[name])
        d = self.resolver.lookupAddress(name)
        d.addCallback(self._first_address, name)
        return d

    def _first_address(self, result, name):
        answers, _, _ = result
        for a in answers:
            if a.type == dns.A:
                self.cache[name] = a.payload.dottedQuad()
                return self.cache[name]
        raise OSError(f"no address for {name}")


class BroadSpider(BenchSpider):
    """scrapy_spider.py's spider (robots.txt obeyed, every link within the domain followed) with
    the broad crawl's settings on top."""
    name = "broad"
    custom_settings = {
        **BenchSpider.custom_settings,
        "CONCURRENT_REQUESTS": 1000,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "DOWNLOAD_DELAY": 1.0,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "REACTOR_THREADPOOL_MAXSIZE": 20,
        "COOKIES_ENABLED": False,
        "RETRY_ENABLED": False,
        "REDIRECT_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 15,
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
    }
