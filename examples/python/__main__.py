"""A zone with records, in Python, with the generated SDK."""
import pulumi
import pulumi_nsp as nsp

config = pulumi.Config()
zone_name = config.get("zoneName") or "python.example"

# Zones belong to an auth_dns service; every account has one.
auth_dns = nsp.dns.get_services_output(type="auth_dns")

zone = nsp.dns.Zone(
    "zone",
    service_id=auth_dns.services.apply(lambda services: services[0].id),
    name=zone_name,
)

www = nsp.dns.Record("www", zone_id=zone.id, name="www", type="A", content="192.0.2.30", ttl=300)
spf = nsp.dns.Record("spf", zone_id=zone.id, type="TXT", content="v=spf1 -all")

pulumi.export("zoneId", zone.id)
pulumi.export("wwwId", www.id)
pulumi.export("nameServers", zone.name_servers)
