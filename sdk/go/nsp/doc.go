// Manage the Network Services Platform API as code: authoritative DNS, edge proxy, security rules, hosted RPKI, mail, tunnels, a cloud PBX and more.
package nsp
