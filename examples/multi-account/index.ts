import * as pulumi from "@pulumi/pulumi";
import * as nsp from "@nsp/pulumi";

// Each account has its own token. Set them with:
//   pulumi config set --secret tokenA svc_...   and   pulumi config set --secret tokenB svc_...
// A provider given no token reads NSP_API_TOKEN from the environment instead.
const config = new pulumi.Config();
const baseUrl = config.get("baseUrl");

function account(name: string, token: pulumi.Output<string> | undefined) {
  const provider = new nsp.Provider(name, { apiToken: token, baseUrl });
  const authDns = nsp.dns.getServicesOutput({ type: "auth_dns" }, { provider });
  const zone = new nsp.dns.Zone(
    `${name}-zone`,
    { serviceId: authDns.services.apply((s) => s[0].id), name: `${name}.multi.example` },
    { provider },
  );
  new nsp.dns.Record(`${name}-www`, { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.40" }, { provider });
  return zone;
}

const zoneA = account("a", config.requireSecret("tokenA"));
const zoneB = account("b", config.getSecret("tokenB"));

export const zoneAId = zoneA.id;
export const zoneBId = zoneB.id;
