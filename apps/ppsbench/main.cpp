#include <cstdio>

int main() {
    std::puts("ppsbench: under construction");
    return 0;
}
