"""The bare gRPC baseline of bench/sessions.py, bench/cpu.py and bench/run.py: a grpc.aio
bidirectional echo server on a free loopback port (printed on stdout), which echoes every message
it reads."""

import asyncio

import grpc


async def main():
    async def echo(request_iterator, context):
        while (msg := await context.read()) is not grpc.aio.EOF:
            await context.write(msg)

    handler = grpc.stream_stream_rpc_method_handler(echo)
    server = grpc.aio.server()
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("bench.Echo", {"Echo": handler}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


asyncio.run(main())
