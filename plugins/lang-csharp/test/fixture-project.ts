// A small C# solution and the SCIP index scip-dotnet would write for it, plus a stand-in for the
// `scip-dotnet` executable (and for `dotnet`, which it runs). scip-dotnet and the .NET SDK cannot
// be fetched here, so the tests put a script on PATH that checks how it is called and writes this
// index (written with the SDK's SCIP writer); what the plugin does with the index, and how the
// host finds, binds and passes the tools, is real. Symbols are in scip-dotnet's form: `scip-dotnet
// nuget . . Checkout/Cart#Add().` for the project (a type under its innermost namespace only),
// the assembly and its version for the framework and packages; positions in UTF-16 code units
// with the encoding left unset; `new T()` a reference to the type; base types and interfaces
// implementation relationships — as its snapshot tests (snapshots/output-net10.0) show.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  scipDocumentAt,
  writeFakeIndexer,
  type FakeIndexerSpec,
  type ScipDocumentSpec,
  type ScipOccurrenceAt,
  type ScipSymbolSpec,
} from '@travsr/sdk/testing';

const SRC = 'src/Shop';

export const PROJECT_FILES: Record<string, string> = {
  'Shop.sln': `Microsoft Visual Studio Solution File, Format Version 12.00
# Visual Studio Version 17
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Shop", "src\\Shop\\Shop.csproj", "{5B1D6A4E-2C3F-4E8A-9D70-1A2B3C4D5E6F}"
EndProject
Global
EndGlobal
`,
  [`${SRC}/Shop.csproj`]: `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <Nullable>enable</Nullable>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
  </ItemGroup>
</Project>
`,
  [`${SRC}/EntityBase.cs`]: `using System;

namespace Shop.Checkout;

public abstract class EntityBase
{
    protected EntityBase(Guid id)
    {
        Id = id;
    }

    public Guid Id { get; }

    public virtual string Describe() => Id.ToString();
}
`,
  [`${SRC}/IPriced.cs`]: `namespace Shop.Checkout;

/// <summary>Anything with a price in cents.</summary>
public interface IPriced
{
    decimal Cents();
}
`,
  [`${SRC}/Pricing.cs`]: `using System;

namespace Shop.Checkout;

public static class Pricing
{
    public const decimal TaxRate = 0.2m;

    public static decimal Price(IPriced item) => item.Cents() + Tax(item.Cents());

    public static decimal Tax(decimal cents) => Math.Round(cents * TaxRate);
}
`,
  [`${SRC}/Cart.cs`]: `using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json;

namespace Shop.Checkout;

public sealed class Cart : EntityBase, IPriced
{
    private readonly List<IPriced> _items = new List<IPriced>();

    public Cart(Guid id) : base(id) { }

    public void Add(IPriced item)
    {
        _items.Add(item);
        Console.WriteLine(Describe());
    }

    public decimal Total() => _items.Sum(i => Pricing.Price(i));

    public decimal Cents() => Total();

    public string ToJson() => JsonConvert.SerializeObject(_items);
}
`,
};

// scip-dotnet names a type after its innermost namespace only (the namespace's owner is the
// package): Shop.Checkout.Cart is `Checkout/Cart#`, System.Collections.Generic.List `Generic/List#`.
const L = 'scip-dotnet nuget . . Checkout/';
const NS = 'scip-dotnet nuget . . ';
const RUNTIME = 'scip-dotnet nuget System.Runtime 8.0.0.0 ';
const COLLECTIONS = 'scip-dotnet nuget System.Collections 8.0.0.0 ';
const LINQ = 'scip-dotnet nuget System.Linq 8.0.0.0 ';
const CONSOLE = 'scip-dotnet nuget System.Console 8.0.0.0 ';
const JSON_NET = 'scip-dotnet nuget Newtonsoft.Json 13.0.0.0 ';
// scip-dotnet writes Roslyn's UTF-16 columns and leaves the encoding unspecified (0).
const doc = (path: string, occ: readonly ScipOccurrenceAt[], symbols: ScipSymbolSpec[] = []): ScipDocumentSpec => ({
  ...scipDocumentAt(path, PROJECT_FILES[path]!, occ, symbols, 'C#'),
  positionEncoding: 0,
});

/** The documents scip-dotnet writes for {@link PROJECT_FILES} (paths relative to the directory it ran in). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc(`${SRC}/EntityBase.cs`, [
      ['using System;', 'System', `${NS}System/`],
      ['namespace Shop.Checkout;', 'Shop', `${NS}Shop/`],
      ['namespace Shop.Checkout;', 'Checkout', `${NS}Checkout/`],
      ['public abstract class EntityBase', 'EntityBase', `${L}EntityBase#`, true],
      ['protected EntityBase(Guid id)', 'EntityBase', `${L}EntityBase#\`.ctor\`().`, true],
      ['protected EntityBase(Guid id)', 'Guid', `${RUNTIME}System/Guid#`],
      ['Id = id;', 'Id', `${L}EntityBase#Id.`],
      ['public Guid Id', 'Guid', `${RUNTIME}System/Guid#`],
      ['public Guid Id', 'Id', `${L}EntityBase#Id.`, true],
      ['public virtual string Describe', 'Describe', `${L}EntityBase#Describe().`, true],
      ['Id.ToString()', 'Id', `${L}EntityBase#Id.`],
      ['Id.ToString()', 'ToString', `${RUNTIME}System/Guid#ToString().`],
    ]),
    doc(`${SRC}/IPriced.cs`, [
      ['namespace Shop.Checkout;', 'Shop', `${NS}Shop/`],
      ['namespace Shop.Checkout;', 'Checkout', `${NS}Checkout/`],
      ['public interface IPriced', 'IPriced', `${L}IPriced#`, true],
      ['decimal Cents();', 'Cents', `${L}IPriced#Cents().`, true],
    ]),
    doc(`${SRC}/Pricing.cs`, [
      ['using System;', 'System', `${NS}System/`],
      ['namespace Shop.Checkout;', 'Shop', `${NS}Shop/`],
      ['namespace Shop.Checkout;', 'Checkout', `${NS}Checkout/`],
      ['public static class Pricing', 'Pricing', `${L}Pricing#`, true],
      ['public const decimal TaxRate', 'TaxRate', `${L}Pricing#TaxRate.`, true],
      ['public static decimal Price', 'Price', `${L}Pricing#Price().`, true],
      ['public static decimal Price', 'IPriced', `${L}IPriced#`],
      ['public static decimal Price', 'Cents', `${L}IPriced#Cents().`],
      ['public static decimal Price', 'Tax', `${L}Pricing#Tax().`],
      ['public static decimal Price', 'Cents', `${L}IPriced#Cents().`, false, 1],
      ['public static decimal Tax', 'Tax', `${L}Pricing#Tax().`, true],
      ['Math.Round', 'Math', `${RUNTIME}System/Math#`],
      ['Math.Round', 'Round', `${RUNTIME}System/Math#Round(+3).`],
      ['Math.Round', 'TaxRate', `${L}Pricing#TaxRate.`],
    ]),
    doc(
      `${SRC}/Cart.cs`,
      [
        ['using System;', 'System', `${NS}System/`],
        ['using System.Collections.Generic;', 'System', `${NS}System/`],
        ['using System.Collections.Generic;', 'Collections', `${NS}Collections/`],
        ['using System.Collections.Generic;', 'Generic', `${NS}Generic/`],
        ['using System.Linq;', 'System', `${NS}System/`],
        ['using System.Linq;', 'Linq', `${NS}Linq/`],
        ['using Newtonsoft.Json;', 'Newtonsoft', `${NS}Newtonsoft/`],
        ['using Newtonsoft.Json;', 'Json', `${NS}Json/`],
        ['namespace Shop.Checkout;', 'Shop', `${NS}Shop/`],
        ['namespace Shop.Checkout;', 'Checkout', `${NS}Checkout/`],
        ['public sealed class Cart', 'Cart', `${L}Cart#`, true],
        ['public sealed class Cart', 'EntityBase', `${L}EntityBase#`],
        ['public sealed class Cart', 'IPriced', `${L}IPriced#`],
        // `List<IPriced>` is a generic name, which scip-dotnet's walker does not visit: only its argument.
        ['private readonly List<IPriced>', 'IPriced', `${L}IPriced#`],
        ['private readonly List<IPriced>', '_items', `${L}Cart#_items.`, true],
        ['private readonly List<IPriced>', 'IPriced', `${L}IPriced#`, false, 1],
        ['public Cart(Guid id)', 'Cart', `${L}Cart#\`.ctor\`().`, true],
        ['public Cart(Guid id)', 'Guid', `${RUNTIME}System/Guid#`],
        ['public void Add', 'Add', `${L}Cart#Add().`, true],
        ['public void Add', 'IPriced', `${L}IPriced#`],
        ['_items.Add(item)', '_items', `${L}Cart#_items.`],
        ['_items.Add(item)', 'Add', `${COLLECTIONS}Generic/List#Add().`],
        ['Console.WriteLine', 'Console', `${CONSOLE}System/Console#`],
        ['Console.WriteLine', 'WriteLine', `${CONSOLE}System/Console#WriteLine(+11).`],
        ['Console.WriteLine', 'Describe', `${L}EntityBase#Describe().`],
        ['public decimal Total', 'Total', `${L}Cart#Total().`, true],
        ['public decimal Total', '_items', `${L}Cart#_items.`],
        ['public decimal Total', 'Sum', `${LINQ}Linq/Enumerable#Sum(+19).`],
        ['public decimal Total', 'Pricing', `${L}Pricing#`],
        ['public decimal Total', 'Price', `${L}Pricing#Price().`],
        ['public decimal Cents', 'Cents', `${L}Cart#Cents().`, true],
        ['public decimal Cents', 'Total', `${L}Cart#Total().`],
        ['public string ToJson', 'ToJson', `${L}Cart#ToJson().`, true],
        ['public string ToJson', 'JsonConvert', `${JSON_NET}Json/JsonConvert#`],
        ['public string ToJson', 'SerializeObject', `${JSON_NET}Json/JsonConvert#SerializeObject().`],
        ['public string ToJson', '_items', `${L}Cart#_items.`],
      ],
      [
        // The base type chain (System.Object left out by scip-dotnet) and every interface.
        { symbol: `${L}Cart#`, implements: [`${L}EntityBase#`, `${L}IPriced#`] },
        { symbol: `${L}Cart#Cents().`, implements: [`${L}IPriced#Cents().`] },
      ],
    ),
  ];
}

/** Writes the project under `dir`. */
export function writeProject(dir: string): void {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * What the stand-in checks of its environment besides {@link FakeIndexerSpec.requireEnv}: the
 * CLI home and NuGet's package folder set, and — when the plugin runs with the host's proxy
 * (HTTPS_PROXY set) — the same proxy for plain HTTP and nothing exempted from it, as NuGet and
 * the .NET HttpClient read them.
 */
const ENV_CHECK = `{
  for (const k of ['DOTNET_CLI_HOME', 'NUGET_PACKAGES', 'NUGET_HTTP_CACHE_PATH']) if (!process.env[k]) die(k + ' is not set');
  const proxy = process.env.HTTPS_PROXY;
  if (proxy) {
    if (process.env.HTTP_PROXY !== proxy) die('HTTPS_PROXY=' + proxy + ' but HTTP_PROXY=' + process.env.HTTP_PROXY);
    if (process.env.NO_PROXY) die('HTTPS_PROXY=' + proxy + ' but NO_PROXY=' + process.env.NO_PROXY + ' bypasses it');
  }
}
`;

/**
 * Writes `<binDir>/scip-dotnet` (and a `dotnet` stand-in beside it): it refuses to run without
 * `index`, the solution and `--output`, outside a directory holding a solution, without `dotnet`
 * on PATH, or without the .NET environment the plugin sets (with the proxy for HTTP too when
 * HTTPS_PROXY is set), and writes the index of {@link fixtureDocuments} (no project root: the
 * plugin takes the directory it ran in). With `download` it first fetches the solution's package
 * from nuget.org, through HTTPS_PROXY when set, as `dotnet restore` would. Modes as
 * {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  const file = writeFakeIndexer(binDir, {
    name: 'scip-dotnet',
    index: { projectRoot: '', toolName: 'scip-dotnet', toolVersion: '0.2.13', documents: fixtureDocuments() },
    output: { flag: '--output' },
    requireArgs: ['index', 'Shop.sln', '--dotnet-restore-timeout'],
    requireInCwd: ['*.sln', '*.csproj'],
    requireOnPath: ['dotnet'],
    requireEnv: { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', NUGET_CERT_REVOCATION_MODE: 'offline' },
    mode,
    failMessage:
      'error: src/Shop/Shop.csproj: Unable to load the service index for source https://api.nuget.org/v3/index.json (MSBuild failed)',
    downloadUrl: 'https://api.nuget.org/v3-flatcontainer/newtonsoft.json/13.0.3/newtonsoft.json.13.0.3.nupkg',
  });
  insertAfterDie(file, ENV_CHECK);
  return file;
}

/** Adds checks to a stand-in written by writeFakeIndexer, right after it defines `die` (one file: the sandbox binds the tool's file alone). */
export function insertAfterDie(file: string, code: string): void {
  const script = readFileSync(file, 'utf8');
  const at = script.indexOf('\n', script.indexOf('const die = '));
  if (script.indexOf('const die = ') < 0 || at < 0) throw new Error(`${file}: not a writeFakeIndexer stand-in`);
  writeFileSync(file, script.slice(0, at + 1) + code + script.slice(at + 1));
}
