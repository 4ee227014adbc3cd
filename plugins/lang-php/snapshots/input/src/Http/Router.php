<?php

declare(strict_types=1);

namespace App\Http;

use App\Http\Middleware\{Auth, Throttle};
use Psr\Http\Message\ServerRequestInterface as Request;
use function App\Support\array_get;

require_once __DIR__ . '/helpers.php';

/**
 * Maps request paths to handlers.
 */
final class Router extends BaseRouter implements RouterInterface, \Countable
{
    use LoggerAwareTrait;

    private array $routes = [];

    public function __construct(private Container $container)
    {
        parent::__construct();
    }

    public function get(string $path, callable $handler): self
    {
        $this->routes['GET'][$path] = $handler;
        $this->logger?->debug("route GET {$path}");
        return $this;
    }

    public function dispatch(Request $request): Response
    {
        $handler = array_get($this->routes, [$request->getMethod(), $request->getUri()->getPath()]);
        if ($handler === null) {
            return Response::notFound();
        }
        return $this->container->call($handler, ['request' => new Auth($request)]);
    }

    public static function count(): int
    {
        return count(self::$routes);
    }
}

interface RouterInterface
{
    public function dispatch(Request $request): Response;
}

trait LoggerAwareTrait
{
    protected ?Logger $logger = null;
}

enum Method: string
{
    case Get = 'GET';
}

function route(string $path): string
{
    $text = <<<EOT
    Route {$path}
    EOT;
    return trim($text);
}
