#!/usr/bin/perl
# Reference peer for docs/scenarios/ldap-vs-ldaps-vs-ldapi.md: the published scenario's loop,
# N x (connect + anonymous bind + search (cn=fulano1) + unbind) with Net::LDAP, timed as a whole.
#   usage: ldap-loop.pl URL N [CAFILE] [nodelay]
# URL: ldap://127.0.0.1:P, ldaps://127.0.0.1:P (CAFILE = the server's PEM), or ldapi://%2Ftmp%2F...
# (Net::LDAPI->new('/path') does not connect with Net::LDAP 0.68: write the path with %2F).
# "nodelay" sets TCP_NODELAY right after connect (Net::LDAP leaves Nagle on; with TLS 1.3 that
# costs ~40 ms per connection). Prints: seconds errors user-cpu-seconds system-cpu-seconds, all four
# for the loop only (interpreter start-up and module loading excluded; the CPU from Perl's times()).
use strict;
use warnings;
use Net::LDAP;
use Socket qw(IPPROTO_TCP TCP_NODELAY);
use Time::HiRes qw(time);

my ($url, $n, $cafile, $nodelay) = @ARGV;
die "usage: $0 URL N [CAFILE] [nodelay]\n" unless $url && $n && $n =~ /^\d+$/ && $n <= 100000;
my $base = 'dc=testeperformance';
my @tls = $url =~ /^ldaps:/ ? (verify => 'require', cafile => $cafile) : ();
my $errors = 0;
my $deadline = time + 600;    # bounded in time as well as in count
my ($u0, $s0) = times;
my $t0 = time;
for my $i (1 .. $n) {
    last if time > $deadline;
    my $ldap = Net::LDAP->new($url, timeout => 5, onerror => undef, @tls);
    unless ($ldap) { $errors++; next; }
    if ($nodelay && $nodelay eq 'nodelay') {
        setsockopt($ldap->socket, IPPROTO_TCP, TCP_NODELAY, 1) or die "setsockopt: $!";
    }
    my $m = $ldap->bind;
    $errors++ if $m->code;
    $m = $ldap->search(base => $base, scope => 'sub', filter => '(cn=fulano1)');
    $errors++ if $m->code || $m->count != 1;
    $ldap->unbind;
    $ldap->disconnect;
}
my $elapsed = time - $t0;
my ($u1, $s1) = times;
printf "%.3f %d %.3f %.3f\n", $elapsed, $errors, $u1 - $u0, $s1 - $s0;
