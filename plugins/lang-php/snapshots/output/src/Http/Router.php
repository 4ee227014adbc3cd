<?php

declare(strict_types=1);

namespace App\Http;

use App\Http\Middleware\{Auth, Throttle};
//                       ^^^^ reference imports App.Http.Middleware.Auth
//                             ^^^^^^^^ reference imports App.Http.Middleware.Throttle
use Psr\Http\Message\ServerRequestInterface as Request;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports Psr.Http.Message.ServerRequestInterface
use function App\Support\array_get;
//           ^^^^^^^^^^^^^^^^^^^^^ reference imports App.Support.array_get

require_once __DIR__ . '/helpers.php';
//                      ^^^^^^^^^^^^ reference imports /helpers.php

/**
 * Maps request paths to handlers.
 */
final class Router extends BaseRouter implements RouterInterface, \Countable
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Router [16:0-47:1]
//                         ^^^^^^^^^^ reference inherits BaseRouter (from Router)
//                                               ^^^^^^^^^^^^^^^ reference implements RouterInterface (from Router)
//                                                                ^^^^^^^^^^ reference implements Countable (from Router)
{
    use LoggerAwareTrait;
//      ^^^^^^^^^^^^^^^^ reference inherits LoggerAwareTrait (from Router)

    private array $routes = [];

    public function __construct(private Container $container)
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Router.__construct (to 25:5)
    {
        parent::__construct();
//              ^^^^^^^^^^^ reference calls parent.__construct (from Router.__construct)
    }

    public function get(string $path, callable $handler): self
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Router.get (to 32:5)
    {
        $this->routes['GET'][$path] = $handler;
        $this->logger?->debug("route GET {$path}");
//                      ^^^^^ reference calls $this.logger.debug (from Router.get)
        return $this;
    }

    public function dispatch(Request $request): Response
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Router.dispatch (to 41:5)
    {
        $handler = array_get($this->routes, [$request->getMethod(), $request->getUri()->getPath()]);
//                 ^^^^^^^^^ reference calls array_get (from Router.dispatch)
//                                                     ^^^^^^^^^ reference calls $request.getMethod (from Router.dispatch)
//                                                                            ^^^^^^ reference calls $request.getUri (from Router.dispatch)
//                                                                                      ^^^^^^^ reference calls getPath (from Router.dispatch)
        if ($handler === null) {
            return Response::notFound();
//                           ^^^^^^^^ reference calls Response.notFound (from Router.dispatch)
        }
        return $this->container->call($handler, ['request' => new Auth($request)]);
//                               ^^^^ reference calls $this.container.call (from Router.dispatch)
//                                                                ^^^^ reference calls Auth (from Router.dispatch)
    }

    public static function count(): int
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Router.count (to 46:5)
    {
        return count(self::$routes);
//             ^^^^^ reference calls count (from Router.count)
    }
}

interface RouterInterface
// ^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface RouterInterface [49:0-52:1]
{
    public function dispatch(Request $request): Response;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method RouterInterface.dispatch
}

trait LoggerAwareTrait
// ^^^^^^^^^^^^^^^^^^^^^^ definition trait LoggerAwareTrait [54:0-57:1]
{
    protected ?Logger $logger = null;
}

enum Method: string
// ^^^^^^^^^^^^^^^^^^^ definition enum Method [59:0-62:1]
{
    case Get = 'GET';
}

function route(string $path): string
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function route [64:0-70:1]
{
    $text = <<<EOT
    Route {$path}
    EOT;
    return trim($text);
//         ^^^^ reference calls trim (from route)
}
// ----- travsr snapshot: src/Http/Router.php (php, phase A, status ok) -----
// node file <file> (Router.php)
// skeleton LoggerAwareTrait: "trait LoggerAwareTrait"
// skeleton Method: "enum Method: string"
// skeleton Router.__construct: "public function __construct(private Container $container)"
// skeleton Router.count: "public static function count(): int"
// skeleton Router.dispatch: "public function dispatch(Request $request): Response"
// skeleton Router.get: "public function get(string $path, callable $handler): self"
// skeleton Router: "/**\n * Maps request paths to handlers.\n */\nfinal class Router extends BaseRouter implements RouterInterface, \\Countable"
// skeleton RouterInterface.dispatch: "public function dispatch(Request $request): Response;"
// skeleton RouterInterface: "interface RouterInterface"
// skeleton route: "function route(string $path): string"
// edge contains <file> -> LoggerAwareTrait (confidence 1, phase-a)
// edge contains <file> -> Method (confidence 1, phase-a)
// edge contains <file> -> Router (confidence 1, phase-a)
// edge contains <file> -> RouterInterface (confidence 1, phase-a)
// edge contains <file> -> route (confidence 1, phase-a)
// edge contains Router -> Router.__construct (confidence 1, phase-a)
// edge contains Router -> Router.count (confidence 1, phase-a)
// edge contains Router -> Router.dispatch (confidence 1, phase-a)
// edge contains Router -> Router.get (confidence 1, phase-a)
// edge contains RouterInterface -> RouterInterface.dispatch (confidence 1, phase-a)
