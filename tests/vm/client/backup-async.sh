# SPDX-License-Identifier: GPL-2.0
# client/backup.sh with backup_mode=async: writes complete on the RDMA
# completion; reads order after in-flight backup writes of the same pages.
set -- async
. /spare/tests/vm/client/backup.sh
