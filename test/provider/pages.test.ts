// Static-site projects, driven through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const PROJECT = "nsp:pages:Project";

const provider = useProvider({ account: "pages" });
const { control, plugin, checked, createWithLostAnswer } = provider;

lifecycle(provider, [
  {
    type: PROJECT,
    create: { name: "walk" },
    unknownOutput: "createdAt",
    replace: { name: "walk-2" },
    apiPath: (_inputs, id) => `/pages/projects/${id}`,
    bad: [
      [{}, "name"],
      [{ name: "" }, "name"],
      [{ name: "Docs" }, "name"],
      [{ name: "-docs" }, "name"],
      [{ name: "d".repeat(59) }, "name"],
      [{ name: 7 }, "name"],
    ],
    skip: {
      update: "the API cannot rename a project, and the name is its one input",
      "drift edit": "the API has no edit of a project",
    },
  },
]);

describe("nsp:pages:Project over gRPC", () => {
  it("shows a deploy made by deploy tooling without a diff, and names the import id it wants", async () => {
    const inputs = await checked(PROJECT, { name: "docs" });
    const created = await plugin.create(PROJECT, "p", inputs);
    expect(created.properties).toEqual({
      name: "docs",
      subdomain: "docs.pages.nsp-emulator.test",
      liveDeployId: null,
      createdAt: expect.any(String),
    });
    const dep = await control.post<{ id: number }>(`/pages/projects/${created.id}/deploys`, {});
    await control.post(`/pages/projects/${created.id}/deploys/${dep.id}/finish`, {});
    const live = await plugin.read(PROJECT, "p", created.id, created.properties, inputs);
    expect(live.properties.liveDeployId).toBe(String(dep.id));
    expect((await plugin.diff(PROJECT, "p", created.id, live.properties, inputs, live.inputs)).changes).toBe(false);
    await expect(plugin.read(PROJECT, "imp", "docs")).rejects.toThrow(/not a static-site project id.*<projectId>/);
    await plugin.delete(PROJECT, "p", created.id, live.properties);
  });

  it("adopts a project whose create answer was lost", async () => {
    const inputs = await checked(PROJECT, { name: "lost-answer" });
    const created = await createWithLostAnswer(PROJECT, "lost", inputs, "/pages/projects");
    expect(created.byRoute).toMatchObject({ "POST /pages/projects": 1, "GET /pages/projects": 1 });
    expect(
      (await control.list<{ name: string }>("/pages/projects")).filter((t) => t.name === "lost-answer"),
    ).toHaveLength(1);
    await plugin.delete(PROJECT, "lost", created.id, created.properties);
  });
});
