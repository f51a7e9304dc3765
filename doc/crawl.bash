# bash completion for crawl
_crawl() {
  local cur prev
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    -i|--input|-o|--output|--seen|--cacert|--warc|--load-cookies|--save-cookies|--netrc-file|\
    --config|--report)
      COMPREPLY=($(compgen -f -- "$cur"))
      return ;;
    --state)
      COMPREPLY=($(compgen -d -- "$cur"))
      return ;;
    --scope)
      COMPREPLY=($(compgen -W "host domain any" -- "$cur"))
      return ;;
    -e|--execute)
      COMPREPLY=($(compgen -W "robots=off robots=on" -- "$cur"))
      return ;;
    --dedupe)
      COMPREPLY=($(compgen -W "bloom counting exact" -- "$cur"))
      return ;;
    -d|--depth)
      COMPREPLY=($(compgen -W "0 1 2 3 5 10 inf" -- "$cur"))
      return ;;
    -D|--domains|--exclude-domains|-A|--accept-ext|-R|--reject-ext|--skip-ext|--match|--exclude|\
    -n|--max-pages|--max-pages-per-host|--max-url-length|--max-path-repeat|--max-path-segments|\
    --max-query-variants|-w|--delay|--delay-factor|--max-delay|\
    --ip-delay|--per-host|-c|--concurrency|-U|--user-agent|--timeout|--connect-timeout|--retries|\
    --max-size|--max-redirs|--max-sitemaps|--sitemap-depth|-H|--header|--resolve|--dns-server|--proxy|--noproxy|--user|--rate|--max-time|--expect|--fp-rate|--queue-memory|--queue-disk|\
    --checkpoint|--cluster|--nodes|--node|--cluster-wait|\
    -t|--tries|-T|--max-redirect|--accept-regex|--reject-regex|-l|--level|--wait|-j|--threads)
      return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "--input --sitemaps --max-sitemaps --sitemap-depth --scope --domains --exclude-domains --accept-ext
      --reject-ext --skip-ext --match --exclude --no-parent --depth --max-pages --max-pages-per-host
      --max-url-length --max-path-repeat --max-path-segments --max-query-variants
      --delay --delay-factor --max-delay --ip-delay --per-host --concurrency
      --no-robots --user-agent --timeout --connect-timeout --retries --max-size --max-redirs
      --check-skipped --js --allow-private --fail-on-broken --print-outside --check-outside --level --recursive --wait --header --insecure --cacert --resolve --dns-server --proxy --noproxy --load-cookies --save-cookies --no-cookies --random-wait --rate --max-time --user --netrc --netrc-file --seen --dedupe --expect --fp-rate
      --queue-memory --queue-disk --state --checkpoint --warc --threads --cluster --nodes --node --cluster-wait --output --jsonl --quiet --verbose --progress --no-progress --help --version
      --spider --no-verbose --execute --tries --no-check-certificate --accept-regex --reject-regex
      --max-redirect --config --no-config --report --check-fragments
      -i -D -A -R -d -n -w -c -j -U -H -k -o -q -v -e -t -T -h -V" -- "$cur"))
  fi
}
complete -F _crawl crawl
