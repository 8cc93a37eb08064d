import pytest

from alfabeta import load_catalog


@pytest.fixture(scope="session")
def catalog():
    """alfabeta's own plugins only, whatever else is installed."""
    return load_catalog(autoload=False, block=())


T1 = [[8, 12, 10], [6, 15, 9], [14, 11, 5]]
T2 = [[3, 5, 7], [3.1, 4, 6]]
T3 = [[-5, 10], [-4, -2]]
T4 = [[[3, 17], [2, 12]], [[15, 25], [0, 2]]]
T5 = [[[3, 4], [8, 2]], [[5, 1], [6, 7]], [[9, 0], [2, 6]]]
T6 = [[[[7, 1], [2, 4]], [[9, 1], [1, 9]]], [[[1, 2], [3, 9]], [[6, 6], [2, 9]]]]
