# blkiotree get, export and apply --prune on the guest's real blkio
# hierarchy, with options after operands as people type them: a tree
# exported, deleted and applied back comes back the same; --prune -n
# names the stray group and keeps it, --prune removes only it.
. "$LAB_GUEST_LIB"
tap_plan 10

modprobe cfq 2>/dev/null
[ -f "$BLKIO/blkio.use_hierarchy" ] ||
	tap_skip_rest "no blkio.use_hierarchy (cfq without hierarchical mode)"
out=/tmp/t53

tap_check "create web -w 300 --hierarchy (options after the group)" \
	blkiotree create web -w 300 --hierarchy
tap_check "create web/api --weight 200" blkiotree create web/api --weight 200
tap_is "get web/api weight use_hierarchy" \
	"$(blkiotree get web/api weight use_hierarchy | tr '\n' ' ')" "200 1 "

blkiotree export web >$out.before 2>$out.err
tap_check "export web" test -s $out.before
blkiotree delete web -r
blkiotree apply $out.before >/dev/null 2>$out.err
blkiotree export web >$out.after 2>>$out.err
tap_check "export | delete -r | apply gives the same tree" cmp $out.before $out.after
[ ! -s $out.err ] || sed 's/^/# /' $out.err

blkiotree create web/stray
blkiotree apply --prune -n $out.before >$out.plan 2>&1
tap_check "apply --prune -n names web/stray" grep -q "web/stray" $out.plan
tap_check "apply --prune -n keeps it" test -d "$BLKIO/web/stray"
blkiotree apply $out.before --prune >/dev/null 2>&1
tap_check "apply --prune removes web/stray" test ! -d "$BLKIO/web/stray"
tap_check "and keeps web/api" test -d "$BLKIO/web/api"

blkiotree get web colour >$out.get 2>&1
status=$?
tap_check "get with an unknown key: status 2, one line naming it" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l <$out.get) -eq 1 ] && grep -q colour $out.get"
blkiotree delete -r web
