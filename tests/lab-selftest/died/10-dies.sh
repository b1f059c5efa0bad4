# Lab self-test: the guest dies in the middle of this test (as on a
# kernel panic), so this test never ends and the tests after it never
# start.
echo "1..1"
# let the serial ports drain what the run printed so far
sleep 2
reboot -f
sleep 60
