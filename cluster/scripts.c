/* cluster/scripts.c: what the nodes of a shared crawl write in Redis, as the Lua scripts that
 * write it, each one step on one node's keys (doc/cluster.md names the keys). */
#include "cluster/cluster-int.h"

const char cluster__group[] = "crawl";

/* Each script runs whole in Redis, on one node's keys (one hash tag). A node's state hash holds
 * its published gate ("-": nothing pending) and idle flag, the entries on their way to it (n) and
 * how many of them hold back each depth (dDEPTH), and a version bumped by every change. */

/* KEYS: the receiver's stream and state; ARGV: the lines, the depth they hold back ("-": none).
 * The append and its count are one step: no moment sees the entry without it. */
const char cluster__send_script[] =
    "redis.call('XADD', KEYS[1], '*', 'l', ARGV[1], 'd', ARGV[2])\n"
    "redis.call('HINCRBY', KEYS[2], 'n', 1)\n"
    "if ARGV[2] ~= '-' then redis.call('HINCRBY', KEYS[2], 'd' .. ARGV[2], 1) end\n"
    "redis.call('HINCRBY', KEYS[2], 'v', 1)\n"
    "return 1";

/* KEYS: this node's state and its set of entries counted as taken; ARGV: gate, idle, stop, the
 * pages it has started (p), then
 * an id and a depth per entry taken since the last publish. An entry given again after a restart is
 * in the set already and is not counted twice. A stop is kept as Redis's time when it was asked
 * for (in microseconds), so a run that goes on after it (--state) can tell it is an old one. */
const char cluster__publish_script[] =
    "for i = 5, #ARGV, 2 do\n"
    "  if redis.call('SADD', KEYS[2], ARGV[i]) == 1 then\n"
    "    redis.call('HINCRBY', KEYS[1], 'n', -1)\n"
    "    if ARGV[i + 1] ~= '-' then\n"
    "      local f = 'd' .. ARGV[i + 1]\n"
    "      if redis.call('HINCRBY', KEYS[1], f, -1) <= 0 then redis.call('HDEL', KEYS[1], f) end\n"
    "    end\n"
    "  end\n"
    "end\n"
    "local stop = '0'\n"
    "if ARGV[3] == '1' then\n"
    "  local t = redis.call('TIME')\n"
    "  stop = t[1] .. string.format('%06d', tonumber(t[2]))\n"
    "end\n"
    "redis.call('HSET', KEYS[1], 'gate', ARGV[1], 'idle', ARGV[2], 'stop', stop, 'p', ARGV[4])\n"
    "redis.call('HINCRBY', KEYS[1], 'v', 1)\n"
    "return 1";

/* KEYS: the job's hash of pages leased, a field per node; ARGV: the node, the change, the limit.
 * A lease is granted from what the limit leaves over all nodes' leases; a negative change gives
 * back what the node will not use. Returns the change made. */
const char cluster__lease_script[] =
    "local change = tonumber(ARGV[2])\n"
    "if change > 0 then\n"
    "  local total = 0\n"
    "  for _, v in ipairs(redis.call('HVALS', KEYS[1])) do total = total + tonumber(v) end\n"
    "  change = math.max(0, math.min(change, tonumber(ARGV[3]) - total))\n"
    "end\n"
    "if change ~= 0 then redis.call('HINCRBY', KEYS[1], ARGV[1], change) end\n"
    "return change";

/* KEYS: this node's stream and taken set; ARGV: the group, the id. Acknowledged, the entry is
 * deleted: this node is the stream's only reader, and Redis holds its streams in memory. */
const char cluster__ack_script[] = "redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])\n"
                                   "redis.call('XDEL', KEYS[1], ARGV[2])\n"
                                   "redis.call('SREM', KEYS[2], ARGV[2])\n"
                                   "return 1";
