# find_package(croupier_bot): the installed Croupier C++ bot kit (clients/cpp's install target).
# Its library links protobuf and grpc++ (Debian: libprotobuf-dev libgrpc++-dev pkg-config), found
# here again the way the kit's own build finds them.
include(CMakeFindDependencyMacro)
find_dependency(Protobuf)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::GRPCPP)
  pkg_check_modules(GRPCPP REQUIRED IMPORTED_TARGET grpc++)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/croupier_botTargets.cmake")
