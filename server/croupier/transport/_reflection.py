"""gRPC server reflection under both names clients use: ``grpc.reflection.v1alpha`` (what
grpcio-reflection ships) and ``grpc.reflection.v1`` (what grpcurl 1.9+, Postman and recent
grpc_cli try first).

The two services are the same on the wire: identical messages and field numbers in another
package. grpcio-reflection has only the v1alpha module, so the v1 file is derived from it at
import time (package and type names renamed) and added to the default descriptor pool, and the
v1alpha servicer answers on the v1 method name too. Both list and describe each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Iterable
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

#: The reflection services served.
V1ALPHA_SERVICE: str = reflection.SERVICE_NAME
V1_SERVICE = "grpc.reflection.v1.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"

_ALPHA_PREFIX = ".grpc.reflection.v1alpha."
_V1_PREFIX = ".grpc.reflection.v1."


def _v1_file() -> descriptor_pb2.FileDescriptorProto:
    """The v1 reflection file: v1alpha's, renamed."""
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name = V1_FILE
    proto.package = "grpc.reflection.v1"
    proto.ClearField("options")
    for message in proto.message_type:
        for f in message.field:
            if f.type_name.startswith(_ALPHA_PREFIX):
                f.type_name = _V1_PREFIX + f.type_name.removeprefix(_ALPHA_PREFIX)
    for service in proto.service:
        for method in service.method:
            method.input_type = _V1_PREFIX + method.input_type.removeprefix(_ALPHA_PREFIX)
            method.output_type = _V1_PREFIX + method.output_type.removeprefix(_ALPHA_PREFIX)
    return proto


def _register_v1() -> None:
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
    except KeyError:
        pool.AddSerializedFile(_v1_file().SerializeToString())


_register_v1()


async def _until_idle(requests: AsyncIterable[Any], idle_s: float) -> AsyncIterator[Any]:
    """The requests of a reflection stream, ending it once none has come for ``idle_s``: a
    client does not hold a stream (one of the server's bounded few) open for nothing."""
    iterator = aiter(requests)
    while True:
        try:
            async with asyncio.timeout(idle_s):
                request = await anext(iterator)
        except (StopAsyncIteration, TimeoutError):
            return
        yield request


class _IdleLimited(reflection.aio.ReflectionServicer):  # type: ignore[misc]  # untyped base
    """The reflection servicer, its streams ended after ``idle_s`` without a request."""

    def __init__(self, names: Iterable[str], idle_s: float) -> None:
        super().__init__(names)
        self._idle_s = idle_s

    async def ServerReflectionInfo(  # gRPC's method name
        self, request_iterator: AsyncIterable[Any], context: Any
    ) -> AsyncIterator[Any]:
        requests = _until_idle(request_iterator, self._idle_s)
        async for response in super().ServerReflectionInfo(requests, context):
            yield response


def enable_reflection(
    server: grpc.aio.Server, service_names: Iterable[str], idle_s: float = 10.0
) -> None:
    """Serve reflection v1alpha and v1 on the asyncio ``server``, listing ``service_names`` and
    the two reflection services themselves; a reflection stream with no request for
    ``idle_s`` seconds is ended (OK)."""
    names = (*service_names, V1ALPHA_SERVICE, V1_SERVICE)
    servicer = _IdleLimited(names, idle_s)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.method_handlers_generic_handler(
        V1_SERVICE,
        {
            "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                servicer.ServerReflectionInfo,
                request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
            )
        },
    )
    server.add_generic_rpc_handlers((v1,))
