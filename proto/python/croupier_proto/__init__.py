"""The Croupier wire contract for Python: the code protoc generates from ``proto/croupier/v1``.

``croupier_proto.v1`` holds one ``*_pb2`` module per ``.proto`` file of the package
``croupier.v1`` (``bot_pb2`` the core and ``bot_pb2_grpc`` its service, one module per game,
``chips_pb2``, ``score_pb2``, ``control_pb2``), :data:`croupier_proto.v1.PROTOCOL_VERSION`
and, written by hand, :mod:`croupier_proto.v1.stdio` (the stdio protocol's lines as messages)
and :mod:`croupier_proto.v1.deal` (no-leak resampling: a deal consistent with an observation).
It imports nothing but ``protobuf`` and ``grpcio``: the Python SDK (``croupier_bot``) and the
arbiter (``croupier``) both depend on it, and neither is needed to use it.
"""
